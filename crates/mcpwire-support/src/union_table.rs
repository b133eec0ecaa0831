//! The static table a generated union decodes by: its variants, what an object needs to
//! possibly match each, and the decision tree choosing one (see [`super::decode_objects`]).
//!
//! The generator computes everything about a union ahead of time — which members and constant
//! values tell the variants apart, in which order rules are tried, and which variants are still
//! worth trying when the chosen one fails — and writes it down as a `static` [`UnionTable`].
//! The one piece of code per union is the function decoding variant `i` as its Rust type.
//!
//! ```
//! use mcpwire_support::union_table::{Check, Else, Node, Token, UnionTable};
//!
//! // `{"type": "text", …}` or `{"type": "image", …}`, anything else an error.
//! static CONTENT: UnionTable = UnionTable {
//!     name: "Content",
//!     one_of: false,
//!     variants: &["TextContent", "ImageContent"],
//!     strings: &["text", "type"],
//!     checks: &[
//!         Check { variant: 0, required: &[&["text"], &["type"]], strs: &[("type", &["text"])], ints: &[] },
//!         Check { variant: 1, required: &[&["data"], &["type"]], strs: &[("type", &["image"])], ints: &[] },
//!     ],
//!     choose: Node::ByToken(&[(
//!         Token::Object,
//!         Node::ByStr {
//!             member: "type",
//!             cases: &[("text", Node::Variant(0, &[])), ("image", Node::Variant(1, &[]))],
//!             otherwise: Else::Fail(&[]),
//!             missing: &[],
//!         },
//!     )]),
//! };
//! assert_eq!(CONTENT.variant_name(1), "ImageContent");
//! ```

/// A member path: one name, or an outer member's name and a name inside it.
pub type Path = &'static [&'static str];

/// The index standing for the `Unknown` variant of a method union.
pub const UNKNOWN_METHOD: usize = usize::MAX;

/// How one union decodes (see the module documentation).
#[derive(Debug)]
pub struct UnionTable {
    /// The union's name, as its error messages give it.
    pub name: &'static str,
    /// `oneOf` (exactly one variant may match) rather than `anyOf` (the first that matches).
    pub one_of: bool,
    /// Variant names by index (an `Unknown` method variant is [`UNKNOWN_METHOD`], not listed).
    pub variants: &'static [&'static str],
    /// For a union of objects: the members read as decoded strings while the object is
    /// captured ([`super::Shape::capture_object`]). Unused by a union decoding from its text.
    pub strings: &'static [&'static str],
    /// What an object needs to possibly match a variant; a variant not listed may match any.
    pub checks: &'static [Check],
    /// How a value picks its variant.
    pub choose: Node,
}

impl UnionTable {
    /// The name of variant `index` (`Unknown` for [`UNKNOWN_METHOD`]).
    pub fn variant_name(&self, index: usize) -> &'static str {
        match index {
            UNKNOWN_METHOD => "Unknown",
            i => self.variants.get(i).copied().unwrap_or("?"),
        }
    }
}

/// What an object must have to possibly match one variant: checked before a variant is tried
/// after the chosen one, so a variant the input cannot match is never decoded.
#[derive(Debug)]
pub struct Check {
    /// The variant's index.
    pub variant: usize,
    /// Members that must be present.
    pub required: &'static [Path],
    /// Members that, when present, must hold one of these string constants.
    pub strs: &'static [(&'static str, &'static [&'static str])],
    /// Members that, when present, must hold one of these integer constants (in any whole
    /// spelling).
    pub ints: &'static [(&'static str, &'static [i64])],
}

/// A JSON type as a decision tells values apart: integers (whole numbers) apart from other
/// numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token {
    /// `{...}`
    Object,
    /// `[...]`
    Array,
    /// `"..."`
    String,
    /// A whole number.
    Integer,
    /// Any number (an integer too, unless the decision has an [`Token::Integer`] case).
    Number,
    /// `true` / `false`
    Bool,
    /// `null`
    Null,
}

impl Token {
    /// The JSON type's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Token::Object => "an object",
            Token::Array => "an array",
            Token::String => "a string",
            Token::Integer => "an integer",
            Token::Number => "a number",
            Token::Bool => "a boolean",
            Token::Null => "null",
        }
    }
}

/// One decision of a union's tree. Every leaf names the variants to try after the chosen
/// one, in order: the others admitting the same JSON type that no constant seen on the way
/// rules out.
#[derive(Debug)]
pub enum Node {
    /// This variant (or [`UNKNOWN_METHOD`]), then these.
    Variant(usize, &'static [usize]),
    /// By the value's JSON type; any type not listed is an error naming the listed ones.
    ByToken(&'static [(Token, Node)]),
    /// By the string value of a member of the object.
    ByStr {
        /// The member (`method`, `type`, …).
        member: &'static str,
        /// Each value and where it leads.
        cases: &'static [(&'static str, Node)],
        /// Where any other string leads.
        otherwise: Else,
        /// The variants to try when the member is missing or not a string.
        missing: &'static [usize],
    },
    /// By the integer value of a member of the object.
    ByInt {
        /// The member.
        member: &'static str,
        /// Each value and where it leads.
        cases: &'static [(i64, Node)],
        /// Where any other integer leads.
        otherwise: Else,
        /// The variants to try when the member is missing or not an integer.
        missing: &'static [usize],
    },
    /// By which members the object has: the first rule that holds wins.
    ByMembers(&'static [Rule], Else),
    /// By the first item of an array, when it is an object; an empty array or another first
    /// item takes the given variant.
    ByFirstItem(&'static Node, usize, &'static [usize]),
}

/// Where a decision leads when none of its cases holds.
#[derive(Debug)]
pub enum Else {
    /// On to this decision (under [`Node::ByMembers`] always a [`Node::Variant`]).
    Then(&'static Node),
    /// No variant is chosen; these are still tried.
    Fail(&'static [usize]),
}

/// A rule of [`Node::ByMembers`].
#[derive(Debug)]
pub struct Rule {
    /// All of these members must be present.
    pub all_of: &'static [Path],
    /// At least one of these must be present (none when empty).
    pub any_of: &'static [Path],
    /// The variant chosen.
    pub variant: usize,
    /// The variants to try after it.
    pub then: &'static [usize],
    /// Why, for error messages.
    pub reason: &'static str,
}
