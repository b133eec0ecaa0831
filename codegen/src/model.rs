//! The intermediate model: named Rust type definitions and references to types.

/// A reference to a type, as used by a field, an item or a variant.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ty {
    /// A JSON string: `String`.
    String,
    /// A JSON Schema `integer`: `i64`.
    Integer,
    /// A JSON Schema `number`: `serde_json::Number` (keeps `50` as `50`, `0.5` as `0.5`).
    Number,
    /// A JSON boolean: `bool`.
    Bool,
    /// JSON `null` (only as a union variant): a unit variant.
    Null,
    /// Any JSON value, where the schema really admits any value (`{}` or `true`): kept as its
    /// text, `mcpwire_types::Json`.
    Any,
    /// A JSON array: `Vec<T>`.
    Array(Box<Ty>),
    /// A JSON object used as a map: `BTreeMap<String, T>`; with [`Ty::Any`] values (an object
    /// with any members) kept as its text, `mcpwire_types::JsonObject`; with such objects as
    /// values, kept as one text too (see [`Ty::is_object_of_objects`]).
    Map(Box<Ty>),
    /// A named definition of the same module.
    Named(String),
    /// A fixed-length array whose items have these types in order (`prefixItems` with no
    /// further items): a Rust tuple.
    Tuple(Vec<Ty>),
}

impl Ty {
    /// Whether this is a map whose values are objects with any members: kept as one text,
    /// `mcpwire_types::JsonObjectMap`, rather than a `BTreeMap` of texts.
    pub fn is_object_of_objects(&self) -> bool {
        matches!(self, Ty::Map(value) if matches!(&**value, Ty::Map(inner) if **inner == Ty::Any))
    }
}

/// A constant value a marker type stands for.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum ConstValue {
    /// A string constant (`"tools/list"`).
    Str(String),
    /// An integer constant (`-32042`).
    Int(i64),
    /// A boolean constant.
    Bool(bool),
    /// A number constant with a fraction or an exponent, as written (`0.5`); equal to any
    /// spelling of the same value.
    Number(String),
}

/// One named type of a generated module.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeDef {
    /// Rust name.
    pub name: String,
    /// JSON pointer of the schema it comes from.
    pub pointer: String,
    /// Name of the top-level definition this type belongs to (for documentation links).
    pub definition: String,
    /// What it is.
    pub kind: Kind,
    /// Value constraints of the definition itself (`minItems` of an array alias, ...).
    pub constraints: Constraints,
}

/// The shape of a [`TypeDef`].
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// An object with declared members.
    Struct(Struct),
    /// A string `enum`.
    Enum(StringEnum),
    /// `anyOf` / `oneOf` / a `type` array.
    Union(Union),
    /// A definition that is just another type (`pub type X = ...`).
    Alias(Ty),
    /// A zero-sized marker for a `const`.
    Const(ConstValue),
}

/// An object with declared members.
#[derive(Debug, Clone, PartialEq)]
pub struct Struct {
    /// Declared members, in JSON name order.
    pub fields: Vec<Field>,
    /// What happens to members the schema does not declare.
    pub extra: Extra,
    /// `not: {"required": [...]}`: these members may not all be present at once (empty: no
    /// such rule).
    pub not_all_present: Vec<String>,
}

impl Struct {
    /// The type undeclared members are kept as, unless `additionalProperties: false` rejects
    /// them.
    pub fn kept(&self) -> Option<&Ty> {
        match &self.extra {
            Extra::Closed => None,
            Extra::Implicit => Some(&Ty::Any),
            Extra::Declared(ty) => Some(ty),
        }
    }

    /// The Rust name of the field holding undeclared members: `extra`, or `extra2`, … when a
    /// declared member already takes that name.
    pub fn extra_field(&self) -> String {
        let mut taken = self.fields.iter().map(|f| f.rust_name.clone()).collect();
        crate::names::unique("extra".to_owned(), &mut taken)
    }
}

/// Members an object schema does not declare.
#[derive(Debug, Clone, PartialEq)]
pub enum Extra {
    /// `additionalProperties: false`: an undeclared member is a decode error.
    Closed,
    /// `additionalProperties` absent: any undeclared member is admitted and kept as it came.
    Implicit,
    /// `additionalProperties: true` or a schema: undeclared members are kept as this type.
    Declared(Ty),
}

/// One member of a struct.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// JSON member name.
    pub json_name: String,
    /// Rust field name (without `r#`).
    pub rust_name: String,
    /// Member type.
    pub ty: Ty,
    /// Listed in `required`.
    pub required: bool,
    /// Its position in `required` (constructors take required members in that order).
    pub required_rank: usize,
    /// The schema admits `null` besides `ty` (a `[T, "null"]` type array).
    pub nullable: bool,
    /// Stored behind a `Box` because the type is recursive through this member.
    pub boxed: bool,
    /// Value constraints of the member schema (used by the proptest strategies).
    pub constraints: Constraints,
}

/// Value constraints of a member schema that do not change its Rust type but matter for
/// generating valid values: numeric bounds, array and string lengths, string `format`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Constraints {
    /// `minimum`.
    pub minimum: Option<f64>,
    /// `maximum`.
    pub maximum: Option<f64>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `minLength`.
    pub min_length: Option<u64>,
    /// `maxLength`.
    pub max_length: Option<u64>,
    /// `format`.
    pub format: Option<String>,
}

impl Constraints {
    /// Reads the constraints of a member schema (its own keywords; `$ref` is not followed).
    pub fn of(schema: &serde_json::Value) -> Self {
        let num = |k: &str| schema.get(k).and_then(serde_json::Value::as_f64);
        let count = |k: &str| schema.get(k).and_then(serde_json::Value::as_u64);
        Self {
            minimum: num("minimum"),
            maximum: num("maximum"),
            min_items: count("minItems"),
            max_items: count("maxItems"),
            min_length: count("minLength"),
            max_length: count("maxLength"),
            format: schema
                .get("format")
                .and_then(serde_json::Value::as_str)
                .map(str::to_owned),
        }
    }
}

/// A string enumeration.
#[derive(Debug, Clone, PartialEq)]
pub struct StringEnum {
    /// `(variant name, JSON value)` in schema order.
    pub values: Vec<(String, String)>,
    /// Whether other strings are admitted too (an `Unknown(String)` variant).
    pub open: bool,
}

/// A union of alternatives and how to tell them apart.
#[derive(Debug, Clone, PartialEq)]
pub struct Union {
    /// The alternatives, in schema order.
    pub variants: Vec<Variant>,
    /// How a JSON value picks its variant (filled in after lowering).
    pub dispatch: Option<Dispatch>,
    /// Whether the union keeps unknown `method`s in an `Unknown` variant.
    pub unknown_method: bool,
    /// `oneOf`: exactly one variant may match. Otherwise (`anyOf`, a `type` array) the first
    /// variant that matches wins.
    pub one_of: bool,
    /// For each JSON token type, every variant admitting it, in schema order: the variants
    /// tried after the one the dispatch chose fails (filled in after lowering).
    pub admitted: Vec<(Token, Vec<usize>)>,
    /// For each variant, what an object needs to possibly match it (filled in after lowering).
    pub checks: Vec<VariantCheck>,
}

/// What an object must have to possibly match a variant: checked before a variant is tried
/// as a fallback, so a variant an input cannot match is never decoded.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VariantCheck {
    /// Members that must be present (a nested path joins names with
    /// [`crate::dispatch::PATH_SEP`]).
    pub required: Vec<String>,
    /// Members that, when present, must hold one of these constants (required or optional).
    pub consts: Vec<(String, Vec<ConstValue>)>,
    /// Whether the variant admits every value of its JSON types (`{}`, a map of anything).
    pub accepts_all: bool,
}

impl VariantCheck {
    /// Whether a member known to hold `value` rules this variant out.
    pub fn excluded_by(&self, member: &str, value: &ConstValue) -> bool {
        self.consts
            .iter()
            .any(|(m, values)| m == member && !values.contains(value))
    }
}

/// One alternative of a union.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// Rust variant name.
    pub name: String,
    /// Its type.
    pub ty: Ty,
    /// Stored behind a `Box` because the type is recursive through it.
    pub boxed: bool,
}

impl Variant {
    /// A variant of type `ty`, named after that type, not boxed.
    pub fn unboxed(ty: Ty) -> Self {
        Self {
            name: match &ty {
                Ty::Named(n) => n.clone(),
                Ty::String => "String".into(),
                Ty::Integer => "Integer".into(),
                Ty::Number => "Number".into(),
                Ty::Bool => "Boolean".into(),
                Ty::Null => "Null".into(),
                Ty::Any => "Any".into(),
                Ty::Array(_) => "Array".into(),
                Ty::Map(_) => "Object".into(),
                Ty::Tuple(_) => "Tuple".into(),
            },
            ty,
            boxed: false,
        }
    }
}

/// Which variant a JSON value decodes as. Indices point into [`Union::variants`];
/// `usize::MAX` stands for the `Unknown` method variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dispatch {
    /// Always this variant.
    Variant(usize),
    /// By JSON token type.
    ByToken(Vec<(Token, Dispatch)>),
    /// By the value of a constant member of an object.
    ByConst {
        /// The member holding the constant (`method`, `type`, ...).
        member: String,
        /// Each constant and where it leads.
        cases: Vec<(ConstValue, Dispatch)>,
        /// Where any other value leads (`None`: an error).
        otherwise: Option<Box<Dispatch>>,
    },
    /// By which members an object has.
    ByMembers {
        /// Tried in order; the first rule that holds wins.
        rules: Vec<MemberRule>,
        /// Used when no rule holds (`None`: an error).
        fallback: Option<usize>,
    },
    /// By the first element of an array (arrays of different item types); an empty array
    /// takes `empty`.
    ByFirstItem {
        /// Decision over the first item, yielding the variant index.
        item: Box<Dispatch>,
        /// Variant for an empty array.
        empty: usize,
    },
}

/// A rule of [`Dispatch::ByMembers`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberRule {
    /// All of these members must be present.
    pub all_of: Vec<String>,
    /// At least one of these must be present (ignored when empty).
    pub any_of: Vec<String>,
    /// The variant chosen.
    pub variant: usize,
    /// Human-readable reason, used in error messages.
    pub reason: String,
}

/// A JSON token type, with integers (no fractional part) told apart from other numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Token {
    /// `{...}`
    Object,
    /// `[...]`
    Array,
    /// `"..."`
    String,
    /// A number without fraction or exponent that fits i64/u64.
    Integer,
    /// Any other number.
    Number,
    /// `true` / `false`
    Bool,
    /// `null`
    Null,
}

/// A whole generated module: the definitions in emission order.
#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    /// All types, sorted by name.
    pub types: Vec<TypeDef>,
    /// Each schema definition's name with the Rust type it became, sorted by definition name.
    pub definitions: Vec<(String, String)>,
    /// Keywords the module does not enforce at decode (`minimum`, `pattern`, …), each with
    /// the pointers it appears at.
    pub unenforced: Vec<(String, Vec<String>)>,
    /// Where a `not` could not be decided at decode (so it is not enforced), always warned
    /// about.
    pub undecided_not: Vec<String>,
}

impl Module {
    /// Looks a type up by name.
    pub fn get(&self, name: &str) -> Option<&TypeDef> {
        self.types
            .binary_search_by(|t| t.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.types[i])
    }
}
