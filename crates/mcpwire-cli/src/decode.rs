//! `mcpwire decode`: decode captured messages with one MCP version's generated types.
//!
//! Without `--as`, a value is decoded as the version's `JSONRPCMessage`, and a request or
//! notification further as the method union that defines its method (`ClientRequest`,
//! `ServerNotification`, …), so the report names the definition the message is. With
//! `--as Definition`, the value is decoded as that definition. Either way the value is decoded
//! from the input's text (never through a `serde_json::Value`) and printed from the typed value,
//! so what is printed is what the types kept: an integer in a typed position is spelled as sent
//! (`1e3`, `-0`, `18446744073709551616`). Free-form members (`_meta`, `arguments`,
//! `structuredContent`, undeclared members) are `serde_json::Value`s in the types: they keep
//! their value, not their spelling.
//!
//! The input is one JSON value, or JSON Lines (one message per line, as captured from stdio).
//! JSON Lines are read and reported one line at a time. Input is bounded by `--max-bytes`
//! (default [`DEFAULT_MAX_BYTES`]): a single JSON document may be that large, and so may
//! each line of JSON Lines; past it the command stops with exit status 2 and says so.

use std::fmt::Write as _;

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use mcpwire_types::support::{DefinitionVisitor, error_pointer, from_text};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Decodes a message's JSON text as a method union: the variant it chose and the value printed
/// back (see [`pretty`]), or `None` when the union does not define the method.
type Classify = fn(&str) -> Result<Option<(&'static str, String)>, String>;

/// One MCP version's generated entry points, as the decoder needs them.
pub struct VersionTable {
    /// `2025-11-25`.
    pub version: &'static str,
    /// Decodes a `JSONRPCMessage` from its text: the variant chosen and the value printed
    /// back (see [`pretty`]).
    message: fn(&str) -> Result<(&'static str, String), String>,
    /// Method unions for requests, tried in order: (union name, classifier).
    requests: &'static [(&'static str, Classify)],
    /// Method unions for notifications.
    notifications: &'static [(&'static str, Classify)],
    /// Decodes a text as the definition of the given name and prints it back (the module's
    /// `visit_definition` with [`PrettyText`]); `None` when there is no such definition.
    definition: fn(&str, &str) -> Option<Result<String, String>>,
    /// Every definition of the version.
    pub definitions: &'static [&'static str],
}

/// Decodes a JSON text as the visited definition (see [`from_text`]) and prints it back from
/// the typed value (see [`pretty`]).
struct PrettyText<'a>(&'a str);

impl DefinitionVisitor for PrettyText<'_> {
    type Output = Result<String, String>;

    fn visit<T: DeserializeOwned + Serialize + 'static>(self) -> Self::Output {
        pretty(&from_text::<T>(self.0)?)
    }
}

/// `value` as pretty-printed JSON, serialized straight from the typed value: an integer the
/// types hold as its text is written as that text.
fn pretty<T: Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string_pretty(value).map_err(|e| e.to_string())
}

/// The `method` member of a message's JSON text (`""` when it has none).
fn method_of(text: &str) -> String {
    #[derive(serde::Deserialize)]
    struct Method {
        method: String,
    }
    serde_json::from_str::<Method>(text)
        .map(|m| m.method)
        .unwrap_or_default()
}

macro_rules! message_decoder {
    ($module:ident) => {
        |text: &str| {
            let message: $module::JSONRPCMessage = from_text(text)?;
            Ok((message.variant_name(), pretty(&message)?))
        }
    };
}

macro_rules! union_classifier {
    ($ty:path) => {
        |text: &str| {
            let decoded: $ty = from_text(text)?;
            match decoded.variant_name() {
                "Unknown" => Ok(None),
                variant => Ok(Some((variant, pretty(&decoded)?))),
            }
        }
    };
}

macro_rules! definition_decoder {
    ($module:ident) => {
        |name: &str, text: &str| $module::visit_definition(name, PrettyText(text))
    };
}

macro_rules! session_version {
    ($module:ident, $version:literal) => {
        VersionTable {
            version: $version,
            message: message_decoder!($module),
            requests: &[
                ("ClientRequest", union_classifier!($module::ClientRequest)),
                ("ServerRequest", union_classifier!($module::ServerRequest)),
            ],
            notifications: &[
                (
                    "ClientNotification",
                    union_classifier!($module::ClientNotification),
                ),
                (
                    "ServerNotification",
                    union_classifier!($module::ServerNotification),
                ),
            ],
            definition: definition_decoder!($module),
            definitions: $module::DEFINITIONS,
        }
    };
}

/// The versions `mcpwire decode` knows, oldest first.
pub static VERSIONS: [VersionTable; 5] = [
    session_version!(v2024_11_05, "2024-11-05"),
    session_version!(v2025_03_26, "2025-03-26"),
    session_version!(v2025_06_18, "2025-06-18"),
    session_version!(v2025_11_25, "2025-11-25"),
    VersionTable {
        version: "2026-07-28",
        message: message_decoder!(v2026_07_28),
        // Stateless: server-to-client requests travel inside results (`InputRequest`).
        requests: &[(
            "ClientRequest",
            union_classifier!(v2026_07_28::ClientRequest),
        )],
        notifications: &[
            // A single definition in this version, not a union: another method is not one
            // of its variants (as `Unknown` of a union), not a failure.
            ("ClientNotification", |text: &str| {
                if method_of(text) != v2026_07_28::MethodNotificationsCancelled::VALUE {
                    return Ok(None);
                }
                let decoded: v2026_07_28::ClientNotification = from_text(text)?;
                Ok(Some(("CancelledNotification", pretty(&decoded)?)))
            }),
            (
                "ServerNotification",
                union_classifier!(v2026_07_28::ServerNotification),
            ),
        ],
        definition: definition_decoder!(v2026_07_28),
        definitions: v2026_07_28::DEFINITIONS,
    },
];

/// The table of MCP `version`, if the decoder knows it.
pub fn version(version: &str) -> Option<&'static VersionTable> {
    VERSIONS.iter().find(|table| table.version == version)
}

/// A value that decoded: the chain of definitions it decoded as, and its re-serialization.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// Outermost first: `["JSONRPCMessage", "JSONRPCRequest", "ClientRequest", "CallToolRequest"]`.
    pub chain: Vec<String>,
    /// A remark for the reader (an undefined method, an untyped result).
    pub note: Option<String>,
    /// The value re-serialized from the typed value, as pretty-printed JSON text.
    pub json: String,
}

/// A value that did not decode.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// The definition it was decoded as.
    pub definition: String,
    /// JSON pointer of the member that failed (`""` for the value itself).
    pub pointer: String,
    /// The decoder's explanation.
    pub message: String,
}

/// Why `mcpwire decode` could not run at all (exit status 2).
#[derive(Debug, Clone, PartialEq)]
pub struct UsageError(pub String);

impl VersionTable {
    /// Decodes the JSON `text` (one JSON value) as `definition`, or as a message when
    /// `definition` is `None`.
    pub fn decode(
        &self,
        text: &str,
        definition: Option<&str>,
    ) -> Result<Result<Decoded, Failure>, UsageError> {
        match definition {
            Some(name) => self.decode_as(name, text),
            None => Ok(self.decode_message(text)),
        }
    }

    fn decode_as(&self, name: &str, text: &str) -> Result<Result<Decoded, Failure>, UsageError> {
        let Some(outcome) = (self.definition)(name, text) else {
            return Err(UsageError(self.unknown_definition(name)));
        };
        Ok(outcome
            .map(|json| Decoded {
                chain: vec![name.to_owned()],
                note: None,
                json,
            })
            .map_err(|message| failure(name, message)))
    }

    fn decode_message(&self, text: &str) -> Result<Decoded, Failure> {
        let (variant, json) =
            (self.message)(text).map_err(|message| failure("JSONRPCMessage", message))?;
        let mut chain = vec!["JSONRPCMessage".to_owned(), variant.to_owned()];
        let unions = match variant {
            "JSONRPCRequest" => self.requests,
            "JSONRPCNotification" => self.notifications,
            _ => {
                let note = variant.contains("Response").then(|| {
                    "a result's type depends on the request's method; decode it with \
                     `--as <Definition>`"
                        .to_owned()
                });
                return Ok(Decoded { chain, note, json });
            }
        };
        for (union, classify) in unions {
            match classify(text) {
                Ok(None) => continue,
                // Printed from the union's value, which types the params too.
                Ok(Some((name, json))) => {
                    chain.push((*union).to_owned());
                    chain.push(name.to_owned());
                    return Ok(Decoded {
                        chain,
                        note: None,
                        json,
                    });
                }
                Err(message) => return Err(failure(union, message)),
            }
        }
        let method = method_of(text);
        Ok(Decoded {
            chain,
            note: Some(format!(
                "method `{method}` is not defined by MCP {}; its params were not typed",
                self.version
            )),
            json,
        })
    }

    fn unknown_definition(&self, name: &str) -> String {
        let wanted = name.to_ascii_lowercase();
        let similar: Vec<&str> = self
            .definitions
            .iter()
            .copied()
            .filter(|d| {
                let d = d.to_ascii_lowercase();
                d.contains(&wanted) || wanted.contains(&d)
            })
            .take(8)
            .collect();
        let mut text = format!("MCP {} has no definition `{name}`", self.version);
        if !similar.is_empty() {
            let _ = write!(text, "; similar: {}", similar.join(", "));
        }
        let _ = write!(
            text,
            " (`mcpwire decode --mcp-version {} --list` lists all {})",
            self.version,
            self.definitions.len()
        );
        text
    }
}

fn failure(definition: &str, message: String) -> Failure {
    Failure {
        definition: definition.to_owned(),
        pointer: error_pointer(&message),
        message,
    }
}

/// `text` without a leading byte order mark, when it is one JSON value (checked without
/// building it, at any depth).
fn parse(text: &str) -> Result<&str, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .map(|_| text)
        .map_err(|e| format!("not JSON: {e}"))
}

/// Decodes every value of `input` and renders the report; `Ok(true)` when all decoded.
pub fn run(
    table: &VersionTable,
    definition: Option<&str>,
    input: &str,
    out: &mut String,
) -> Result<bool, UsageError> {
    let mut bytes = Vec::new();
    let source = Source {
        name: "the input",
        max_bytes: usize::MAX,
    };
    let all_ok = run_reader(table, definition, input.as_bytes(), &source, &mut bytes)?;
    out.push_str(&String::from_utf8_lossy(&bytes));
    Ok(all_ok)
}

/// The default bound of `--max-bytes`: 64 MiB, the runtime's default frame limit.
pub const DEFAULT_MAX_BYTES: usize = 64 * 1024 * 1024;

/// Where `mcpwire decode` reads from, for messages, and how much it may read.
#[derive(Debug, Clone)]
pub struct Source<'a> {
    /// `standard input` or the file name.
    pub name: &'a str,
    /// The largest JSON document, or JSON Lines line (terminator excluded), in bytes.
    pub max_bytes: usize,
}

/// Like [`run`], reading `input` as it goes and writing each value's report to `out` as
/// soon as it is known. Memory stays within one document or one line of `source.max_bytes`;
/// a longer one, or bytes that are not UTF-8, end the run with a [`UsageError`].
pub fn run_reader(
    table: &VersionTable,
    definition: Option<&str>,
    input: impl std::io::BufRead,
    source: &Source<'_>,
    out: &mut impl std::io::Write,
) -> Result<bool, UsageError> {
    let mut lines = Lines {
        input,
        source,
        number: 0,
        offset: 0,
    };
    // Blank lines before the first value are kept in case the input is one document.
    let mut head = Vec::new();
    let (first_number, first) = loop {
        let Some((number, line)) = lines.next_line()? else {
            return Err(UsageError("the input holds no JSON value".into()));
        };
        head.extend_from_slice(&line);
        if !is_blank(&line) {
            break (number, line);
        }
    };
    let first_text = lines.text(&first, head.len() - first.len())?;
    let first_value = parse(first_text.trim_end_matches(['\n', '\r']));
    if first_value.is_err() {
        // Not a value on its own: the whole input is one (pretty-printed) document.
        let document = lines.rest_of_document(head)?;
        let text = lines.text(&document, 0)?;
        let (report, ok) = report(table, definition, parse(text))?;
        write_out(out, &report)?;
        return Ok(ok);
    }
    // JSON Lines; the first report is numbered only once a second value shows up.
    let (report_text, mut all_ok) = report(table, definition, first_value)?;
    let mut pending = Some((first_number, report_text));
    loop {
        let (number, text) = match lines.next_value_line() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(error) => {
                // What was decoded before the bad line is still reported.
                if let Some((first_number, first_report)) = pending.take() {
                    write_out(out, &format!("line {first_number}:\n{first_report}"))?;
                }
                return Err(error);
            }
        };
        if let Some((first_number, first_report)) = pending.take() {
            write_out(out, &format!("line {first_number}:\n{first_report}"))?;
        }
        let (report_text, ok) = report(table, definition, parse(&text))?;
        all_ok &= ok;
        write_out(out, &format!("line {number}:\n{report_text}"))?;
    }
    if let Some((_, first_report)) = pending {
        write_out(out, &first_report)?;
    }
    Ok(all_ok)
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|b| b.is_ascii_whitespace())
}

fn write_out(out: &mut impl std::io::Write, text: &str) -> Result<(), UsageError> {
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| UsageError(format!("cannot write the report: {e}")))
}

/// The input's lines, each read with the bound of [`Source::max_bytes`].
struct Lines<'s, R> {
    input: R,
    source: &'s Source<'s>,
    /// 1-based number of the last line read.
    number: usize,
    /// Bytes read so far.
    offset: usize,
}

impl<R: std::io::BufRead> Lines<'_, R> {
    /// The next line with its terminator, or `None` at the end of input.
    fn next_line(&mut self) -> Result<Option<(usize, Vec<u8>)>, UsageError> {
        use std::io::{BufRead, Read};
        let mut line = Vec::new();
        let limit = self.source.max_bytes.saturating_add(2);
        let read = (&mut self.input)
            .take(u64::try_from(limit).unwrap_or(u64::MAX))
            .read_until(b'\n', &mut line)
            .map_err(|e| UsageError(format!("cannot read {}: {e}", self.source.name)))?;
        if read == 0 {
            return Ok(None);
        }
        self.number += 1;
        self.offset += read;
        let content = line.strip_suffix(b"\n").unwrap_or(&line);
        let content = content.strip_suffix(b"\r").unwrap_or(content);
        if content.len() > self.source.max_bytes {
            return Err(UsageError(format!(
                "line {} of {} is longer than {} bytes (raise the limit with --max-bytes)",
                self.number, self.source.name, self.source.max_bytes
            )));
        }
        Ok(Some((self.number, line)))
    }

    /// The next non-blank line as text, without its terminator.
    fn next_value_line(&mut self) -> Result<Option<(usize, String)>, UsageError> {
        while let Some((number, line)) = self.next_line()? {
            if !is_blank(&line) {
                let text = self.text(&line, self.offset - line.len())?;
                return Ok(Some((
                    number,
                    text.trim_end_matches(['\n', '\r']).to_owned(),
                )));
            }
        }
        Ok(None)
    }

    /// `head` plus the rest of the input, as one document of at most `max_bytes`.
    fn rest_of_document(&mut self, mut document: Vec<u8>) -> Result<Vec<u8>, UsageError> {
        use std::io::Read;
        let room = self.source.max_bytes.saturating_sub(document.len());
        (&mut self.input)
            .take(u64::try_from(room).unwrap_or(u64::MAX).saturating_add(1))
            .read_to_end(&mut document)
            .map_err(|e| UsageError(format!("cannot read {}: {e}", self.source.name)))?;
        if document.len() > self.source.max_bytes {
            return Err(UsageError(format!(
                "{} is larger than {} bytes (raise the limit with --max-bytes)",
                self.source.name, self.source.max_bytes
            )));
        }
        Ok(document)
    }

    /// `bytes` (found at input offset `at`) as text.
    fn text<'b>(&self, bytes: &'b [u8], at: usize) -> Result<&'b str, UsageError> {
        std::str::from_utf8(bytes).map_err(|e| {
            UsageError(format!(
                "{} is not UTF-8 (invalid byte at offset {})",
                self.source.name,
                at + e.valid_up_to()
            ))
        })
    }
}

/// The report of one value (or its parse error), and whether it decoded.
fn report(
    table: &VersionTable,
    definition: Option<&str>,
    text: Result<&str, String>,
) -> Result<(String, bool), UsageError> {
    let outcome = match text {
        Ok(text) => table.decode(text, definition)?,
        Err(message) => Err(Failure {
            definition: definition.unwrap_or("JSONRPCMessage").to_owned(),
            pointer: String::new(),
            message,
        }),
    };
    let mut out = String::new();
    let ok = outcome.is_ok();
    match outcome {
        Ok(decoded) => render_decoded(&decoded, &mut out),
        Err(failure) => render_failure(table, &failure, &mut out),
    }
    Ok((out, ok))
}

fn render_decoded(decoded: &Decoded, out: &mut String) {
    let _ = writeln!(out, "type: {}", decoded.chain.join(" > "));
    if let Some(note) = &decoded.note {
        let _ = writeln!(out, "note: {note}");
    }
    let _ = writeln!(out, "{}", decoded.json);
}

fn render_failure(table: &VersionTable, failure: &Failure, out: &mut String) {
    let _ = writeln!(
        out,
        "error: does not decode as {} (MCP {})",
        failure.definition, table.version
    );
    let pointer = if failure.pointer.is_empty() {
        "\"\" (the value itself)"
    } else {
        &failure.pointer
    };
    let _ = writeln!(out, "  at: {pointer}");
    let _ = writeln!(out, "  why: {}", failure.message);
}

/// Arguments of `mcpwire decode`.
#[derive(Debug, Clone, clap::Args)]
pub struct DecodeArgs {
    /// MCP version whose generated types decode the input.
    #[arg(long, value_name = "VERSION", default_value = "2026-07-28", value_parser = parse_version)]
    pub mcp_version: String,
    /// Decode as this schema definition (e.g. `CallToolResult`) instead of as a message.
    #[arg(long = "as", value_name = "DEFINITION")]
    pub definition: Option<String>,
    /// List the version's definitions and exit.
    #[arg(long)]
    pub list: bool,
    /// The file to read, or `-` for standard input: one JSON value, or JSON Lines.
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: String,
    /// The largest input read: one JSON document, or one line of JSON Lines, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_BYTES)]
    pub max_bytes: usize,
}

fn parse_version(text: &str) -> Result<String, String> {
    match version(text) {
        Some(table) => Ok(table.version.to_owned()),
        None => Err(format!(
            "unknown MCP version `{text}`; known versions: {}",
            VERSIONS
                .iter()
                .map(|t| t.version)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Runs `mcpwire decode`: exit 0 when every value decoded, 1 when one did not (the report
/// names the definition, the failing JSON pointer and why), 2 when the input could not be
/// read or the arguments name nothing known.
pub fn main(args: &DecodeArgs) -> std::process::ExitCode {
    use std::process::ExitCode;
    let Some(table) = version(&args.mcp_version) else {
        eprintln!("mcpwire decode: unknown MCP version `{}`", args.mcp_version);
        return ExitCode::from(2);
    };
    if args.list {
        for name in table.definitions {
            println!("{name}");
        }
        return ExitCode::SUCCESS;
    }
    let outcome = if args.file == "-" {
        let source = Source {
            name: "standard input",
            max_bytes: args.max_bytes,
        };
        let stdin = std::io::stdin();
        run_reader(
            table,
            args.definition.as_deref(),
            stdin.lock(),
            &source,
            &mut std::io::stdout(),
        )
    } else {
        let source = Source {
            name: &args.file,
            max_bytes: args.max_bytes,
        };
        std::fs::File::open(&args.file)
            .map_err(|e| UsageError(format!("cannot read {}: {e}", args.file)))
            .and_then(|file| {
                let input = std::io::BufReader::new(file);
                run_reader(
                    table,
                    args.definition.as_deref(),
                    input,
                    &source,
                    &mut std::io::stdout(),
                )
            })
    };
    match outcome {
        Ok(all_decoded) => {
            if all_decoded {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(UsageError(message)) => {
            eprintln!("mcpwire decode: {message}");
            ExitCode::from(2)
        }
    }
}
