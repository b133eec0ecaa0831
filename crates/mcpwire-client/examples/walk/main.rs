//! Walks a whole MCP server with the client: connects (a command run as a child process over
//! stdio, or a Streamable HTTP URL), lists every page of tools, resources, templates and
//! prompts, calls every tool with arguments made from its input schema, reads every resource
//! (and one instance of every template), gets every prompt with its required arguments, and
//! answers the sampling, elicitation and roots requests the server sends on the way (under
//! 2026-07-28 it declares the Tasks extension and follows the tasks a server makes of its
//! calls). One line per item on stdout, then a summary line starting `walk:`.
//!
//! ```text
//! walk [--protocol VERSION] [--timeout SECONDS] [--ca-file PEM] [--oauth [--browser COMMAND]] URL
//! walk [--protocol VERSION] [--timeout SECONDS] -- COMMAND [ARGUMENT...]
//! ```
//!
//! `--ca-file` trusts the CA certificates of a PEM file (a server behind a private CA) besides
//! the platform's roots. `--oauth` (built with the feature `oauth`) answers a `401` with the
//! client's OAuth 2.1: dynamic registration and the authorization code flow with PKCE, the
//! redirect received on 127.0.0.1 ([`mcpwire_client::auth::LoopbackReceiver`]); the
//! authorization URL is printed on stderr for the user to open, or, with `--browser`, given
//! as the last argument to COMMAND (split on spaces), which plays the user.
//!
//! Exit status 0 when no item failed on the client's side; 1 when one did (a rule the server
//! broke, a malformed result, a transport error, a timeout) or the client reported a
//! violation; 2 for a bad command line. A tool answering `isError` and a JSON-RPC error
//! answer (the sample arguments may not suit a server) are reported, not failures.
//!
//! Driven by `scripts/client-interop/run.sh`.

mod report;
mod sample;

use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use mcpwire_client::{
    CallOptions, ChildProcess, Client, ClientError, CompletionTarget, ElicitAnswer, HttpTransport,
    Root, SamplingReply, Version, result_text,
};
use report::{Outcome, Report, one_line};
use serde_json::{Map, Value};

/// What the command line asked for.
struct Args {
    protocol: Version,
    timeout: Duration,
    /// `--ca-file`: a PEM file of CA certificates to trust.
    ca_file: Option<String>,
    /// `--oauth`: authorize with OAuth when challenged.
    oauth: bool,
    /// `--browser`: the command that plays the user.
    browser: Option<String>,
    target: Target,
}

/// Where the server is.
enum Target {
    Url(String),
    Command(Vec<String>),
}

const USAGE: &str = "usage: walk [--protocol VERSION] [--timeout SECONDS] [--ca-file PEM] [--oauth [--browser COMMAND]] (URL | -- COMMAND [ARGUMENT...])";

/// The most items of one kind the walk visits (a server listing more is only listed).
const MAX_ITEMS: usize = 1000;

fn parse_args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let mut parsed = Args {
        protocol: Version::V2025_11_25,
        timeout: Duration::from_secs(30),
        ca_file: None,
        oauth: false,
        browser: None,
        target: Target::Command(Vec::new()),
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--protocol" => {
                let text = args.next().ok_or("--protocol takes a version")?;
                parsed.protocol =
                    Version::parse(&text).ok_or(format!("unknown version {text:?}"))?;
            }
            "--timeout" => {
                let text = args.next().ok_or("--timeout takes seconds")?;
                let seconds: u64 = text
                    .parse()
                    .map_err(|_| format!("bad --timeout {text:?}"))?;
                parsed.timeout = Duration::from_secs(seconds.max(1));
            }
            "--ca-file" => parsed.ca_file = Some(args.next().ok_or("--ca-file takes a file")?),
            "--oauth" if cfg!(feature = "oauth") => parsed.oauth = true,
            "--oauth" => {
                return Err("--oauth needs the example built with the feature oauth".into());
            }
            "--browser" => parsed.browser = Some(args.next().ok_or("--browser takes a command")?),
            "--" => {
                let command: Vec<String> = args.collect();
                if command.is_empty() {
                    return Err("`--` takes a command".into());
                }
                if parsed.oauth || parsed.ca_file.is_some() {
                    return Err("--oauth and --ca-file are for a URL".into());
                }
                parsed.target = Target::Command(command);
                return Ok(parsed);
            }
            url if url.starts_with("http://") || url.starts_with("https://") => {
                if args.next().is_some() {
                    return Err("nothing may follow the URL".into());
                }
                if parsed.browser.is_some() && !parsed.oauth {
                    return Err("--browser goes with --oauth".into());
                }
                parsed.target = Target::Url(url.to_owned());
                return Ok(parsed);
            }
            other => return Err(format!("unexpected argument {other:?}")),
        }
    }
    Err("no server given".into())
}

/// The transport to `url` as `args` say: the CA file trusted, OAuth when asked for.
async fn http_transport(args: &Args, url: &str) -> Result<HttpTransport, ClientError> {
    let mut transport = HttpTransport::new(url)?;
    if let Some(file) = &args.ca_file {
        let pem = std::fs::read(file)
            .map_err(|error| ClientError::Params(format!("--ca-file {file}: {error}")))?;
        transport = transport.add_root_pem(&pem)?;
    }
    #[cfg(feature = "oauth")]
    if args.oauth {
        transport = transport.oauth(oauth::configured(args.browser.clone()).await?);
    }
    Ok(transport)
}

/// `--oauth`: the loopback receiver, and the browser command that plays the user.
#[cfg(feature = "oauth")]
mod oauth {
    use std::process::{Command, Stdio};

    use mcpwire_client::ClientError;
    use mcpwire_client::auth::{LoopbackReceiver, OAuth};

    /// OAuth with a loopback receiver, the URL opened by `browser` (else printed).
    pub(super) async fn configured(browser: Option<String>) -> Result<OAuth, ClientError> {
        let receiver = LoopbackReceiver::bind(move |url| open(browser.as_deref(), url))
            .await
            .map_err(|error| ClientError::Params(format!("the redirect receiver: {error}")))?;
        Ok(OAuth::new(receiver).client_name("mcpwire-walk"))
    }

    /// Hands `url` to the user: runs `browser` with it (not waited for: it ends by
    /// following the redirect to the receiver), or prints it.
    fn open(browser: Option<&str>, url: &str) -> Result<(), String> {
        let Some(browser) = browser else {
            eprintln!("walk: open this URL to authorize: {url}");
            return Ok(());
        };
        let mut words = browser.split_whitespace();
        let program = words.next().ok_or("--browser is empty")?;
        Command::new(program)
            .args(words)
            .arg(url)
            .stdin(Stdio::null())
            .spawn()
            .map(drop)
            .map_err(|error| format!("--browser {browser}: {error}"))
    }
}

/// How many requests of the server each handler answered.
#[derive(Default)]
struct Asks {
    sampling: AtomicUsize,
    elicitation: AtomicUsize,
    roots: AtomicUsize,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(reason) => {
            eprintln!("walk: {reason}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let violations = Arc::new(Mutex::new(Vec::<String>::new()));
    let asks = Arc::new(Asks::default());
    let transport_name = match &args.target {
        Target::Url(url) if url.starts_with("https://") => "https",
        Target::Url(_) => "http",
        Target::Command(_) => "stdio",
    };
    let mut report = Report::default();
    let client = match connect(&args, &violations, &asks).await {
        Ok(client) => client,
        Err(error) => {
            report.item("connect", "", Outcome::Failure(error.to_string()));
            println!(
                "walk: transport={transport_name} version=- {}",
                report.counts()
            );
            return ExitCode::FAILURE;
        }
    };
    let handshake = client.handshake();
    let server = format!(
        "{}/{}",
        handshake
            .server_info
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("?"),
        handshake
            .server_info
            .get("version")
            .and_then(Value::as_str)
            .unwrap_or("?"),
    );
    println!(
        "connected to {server}, version {}",
        client.protocol_version().as_str()
    );
    walk(&client, &mut report).await;
    client.close().await;

    let violations = violations.lock().unwrap_or_else(PoisonError::into_inner);
    for violation in violations.iter() {
        println!(
            "{:<12} {:<10} {}",
            "FAIL",
            "violation",
            one_line(violation, 200)
        );
    }
    let counts = report.counts();
    println!(
        "walk: server={server} transport={transport_name} version={} {counts} violations={} asks=sampling:{},elicitation:{},roots:{}",
        client.protocol_version().as_str(),
        violations.len(),
        asks.sampling.load(Ordering::Relaxed),
        asks.elicitation.load(Ordering::Relaxed),
        asks.roots.load(Ordering::Relaxed),
    );
    if counts.failures == 0 && violations.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// A client with every handler registered, connected to the server of `args`.
async fn connect(
    args: &Args,
    violations: &Arc<Mutex<Vec<String>>>,
    asks: &Arc<Asks>,
) -> Result<Client, ClientError> {
    let (sampled, elicited, rooted) = (Arc::clone(asks), Arc::clone(asks), Arc::clone(asks));
    let url_elicited = Arc::clone(asks);
    let seen = Arc::clone(violations);
    let builder = Client::builder("mcpwire-walk", env!("CARGO_PKG_VERSION"))
        .protocol_version(args.protocol)
        .request_timeout(Some(args.timeout))
        // The Tasks extension (2026-07-28): a tool call the server makes a task is followed
        // to its result, its questions answered through `tasks/update`.
        .tasks()
        .on_sampling(move |_params| {
            sampled.sampling.fetch_add(1, Ordering::Relaxed);
            async move {
                let reply = SamplingReply::assistant_text(
                    "mcpwire-walk",
                    "A sampled answer from mcpwire-walk.",
                );
                Ok(reply.stop_reason("endTurn"))
            }
        })
        .on_elicitation(move |form| {
            elicited.elicitation.fetch_add(1, Ordering::Relaxed);
            let content = sample::form(&form.requested_schema);
            async move { Ok(ElicitAnswer::Accept(content)) }
        })
        .on_url_elicitation(move |_| {
            url_elicited.elicitation.fetch_add(1, Ordering::Relaxed);
            async move { Ok(ElicitAnswer::Accept(Map::new())) }
        })
        .on_roots(move || {
            rooted.roots.fetch_add(1, Ordering::Relaxed);
            async move { Ok(vec![Root::new("file:///tmp").with_name("tmp")]) }
        })
        .on_violation(move |violation| {
            seen.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(violation.to_string());
        });
    match &args.target {
        Target::Url(url) => builder.connect(http_transport(args, url).await?).await,
        Target::Command(command) => {
            let child = ChildProcess::new(&command[0]).args(&command[1..]);
            builder.connect(child).await
        }
    }
}

/// Every list, then every item of each.
async fn walk(client: &Client, report: &mut Report) {
    let handshake = client.handshake();
    if handshake.has_capability("tools") {
        walk_tools(client, report).await;
    }
    if handshake.has_capability("resources") {
        walk_resources(client, report).await;
        walk_templates(client, report).await;
    }
    if handshake.has_capability("prompts") {
        walk_prompts(client, report).await;
    }
}

async fn walk_tools(client: &Client, report: &mut Report) {
    let tools = match client.list_all_tools().await {
        Ok(tools) => tools,
        Err(error) => return report.item("list", "tools", Outcome::of_error(&error)),
    };
    report.item(
        "list",
        "tools",
        Outcome::Ok(format!("{} tools", tools.len())),
    );
    for tool in tools.iter().take(MAX_ITEMS) {
        let schema = tool.input_schema.to_value().unwrap_or(Value::Null);
        let arguments = sample::arguments(&schema);
        let outcome = match client
            .call_tool(&tool.name, &arguments, &CallOptions::new())
            .await
        {
            Ok(result) if result.is_error() => Outcome::ToolError(result_text(&result)),
            Ok(result) => Outcome::Ok(format!(
                "{} block(s){} {}",
                result.blocks().len(),
                if result.structured_content().is_some() {
                    ", structured"
                } else {
                    ""
                },
                result_text(&result)
            )),
            Err(error) => Outcome::of_error(&error),
        };
        report.item("tool", &format!("{} {}", tool.name, arguments), outcome);
    }
}

async fn walk_resources(client: &Client, report: &mut Report) {
    let resources = match client.list_all_resources().await {
        Ok(resources) => resources,
        Err(error) => return report.item("list", "resources", Outcome::of_error(&error)),
    };
    report.item(
        "list",
        "resources",
        Outcome::Ok(format!("{} resources", resources.len())),
    );
    for resource in resources.iter().take(MAX_ITEMS) {
        let outcome = read(client, &resource.uri).await;
        report.item("resource", &resource.uri, outcome);
    }
}

async fn walk_templates(client: &Client, report: &mut Report) {
    let templates = match client.list_all_resource_templates().await {
        Ok(templates) => templates,
        Err(error) => return report.item("list", "templates", Outcome::of_error(&error)),
    };
    report.item(
        "list",
        "templates",
        Outcome::Ok(format!("{} templates", templates.len())),
    );
    for template in templates.iter().take(MAX_ITEMS) {
        let uri = expand(client, &template.uri_template).await;
        let outcome = read(client, &uri).await;
        report.item(
            "template",
            &format!("{} -> {uri}", template.uri_template),
            outcome,
        );
    }
}

async fn read(client: &Client, uri: &str) -> Outcome {
    match client.read_resource(uri).await {
        Ok(contents) => Outcome::Ok(format!("{} content(s)", contents.len())),
        Err(error) => Outcome::of_error(&error),
    }
}

async fn walk_prompts(client: &Client, report: &mut Report) {
    let prompts = match client.list_all_prompts().await {
        Ok(prompts) => prompts,
        Err(error) => return report.item("list", "prompts", Outcome::of_error(&error)),
    };
    report.item(
        "list",
        "prompts",
        Outcome::Ok(format!("{} prompts", prompts.len())),
    );
    for prompt in prompts.iter().take(MAX_ITEMS) {
        let mut values: Vec<(String, String)> = Vec::new();
        for argument in prompt
            .arguments
            .iter()
            .flatten()
            .filter(|a| a.required == Some(true))
        {
            let target = CompletionTarget::Prompt(prompt.name.clone());
            let value = completed(client, target, &argument.name, &values).await;
            values.push((argument.name.clone(), value));
        }
        let pairs: Vec<(&str, &str)> = values
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let outcome = match client.get_prompt(&prompt.name, &pairs).await {
            Ok(result) => Outcome::Ok(format!("{} message(s)", result.messages.len())),
            Err(error) => Outcome::of_error(&error),
        };
        report.item("prompt", &format!("{} {pairs:?}", prompt.name), outcome);
    }
}

/// A value for an argument: the server's first completion when it offers completions,
/// `1` otherwise (a number and a string at once).
async fn completed(
    client: &Client,
    target: CompletionTarget,
    argument: &str,
    given: &[(String, String)],
) -> String {
    if client.handshake().has_capability("completions") {
        let context: Vec<(&str, &str)> = given
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        if let Ok(page) = client.complete(target, argument, "", &context).await
            && let Some(first) = page.values.into_iter().next()
        {
            return first;
        }
    }
    "1".to_owned()
}

/// One URI of an RFC 6570 template: each variable gets a completion or `1`.
async fn expand(client: &Client, template: &str) -> String {
    let mut out = String::new();
    let mut given: Vec<(String, String)> = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let expression = &rest[open + 1..open + close];
        let names = expression.trim_start_matches(['+', '#', '.', '/', ';', '?', '&']);
        for name in names.split(',') {
            let name = name.trim_end_matches('*').split(':').next().unwrap_or(name);
            let target = CompletionTarget::Template(template.to_owned());
            let value = completed(client, target, name, &given).await;
            out.push_str(&value);
            given.push((name.to_owned(), value));
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}
