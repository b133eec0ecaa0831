//! The `union!` macro: a generated union's `variant_name`, its `From` impls and its
//! `schemars::JsonSchema`, written out from one variant list.

/// Writes a generated union's `variant_name`, `From` impls and (optionally) `JsonSchema` from
/// its variant list; its `Deserialize` is its table ([`crate::union_table`]).
///
/// The generator writes the enum, its docs and its `Deserialize` itself, then one `union!`
/// call. The first line names the enum and the definition and, optionally, `schemars
/// "feature"` for a `JsonSchema` impl (`anyOf` of the variants) behind that feature. Each
/// variant line is `Variant(Type) flags;`, where the flags are `from` (writes `From<Type>`) and
/// `boxed` (the variant holds `Box<Type>`), or `Variant null;` for the `null` variant; a method
/// union's `Unknown` variant (holding a [`crate::UnknownMethod`]) is `Unknown unknown;`.
///
/// ```
/// #[derive(Debug, PartialEq)]
/// pub enum Scalar {
///     Text(String),
///     Tree(Box<Vec<Scalar>>),
///     Null,
/// }
/// mcpwire_support::union! {
///     Scalar "Scalar";
///     Text(String) from;
///     Tree(Vec<Scalar>) boxed from;
///     Null null;
/// }
/// assert_eq!(Scalar::from("a".to_owned()).variant_name(), "Text");
/// assert_eq!(Scalar::from(vec![Scalar::Null]).variant_name(), "Tree");
/// ```
///
/// Every path the expansion names is absolute: a module of generated types may define its own
/// `Result` or `Option`.
#[macro_export]
macro_rules! union {
    (
        $name:ident $definition:literal schemars $feature:literal;
        $($variant:ident $(($ty:ty))? $($flag:ident)*;)*
    ) => {
        $crate::union!($name $definition; $($variant $(($ty))? $($flag)*;)*);
        #[cfg(feature = $feature)]
        impl ::schemars::JsonSchema for $name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                $definition.into()
            }
            fn schema_id() -> ::std::borrow::Cow<'static, str> {
                ::core::concat!(::core::module_path!(), "::", $definition).into()
            }
            fn json_schema(generator: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                $crate::any_of_schema(::std::vec![
                    $($crate::union!(@schema generator [$($ty)?] [$($flag)*])),*
                ])
            }
        }
    };
    (
        $name:ident $definition:literal;
        $($variant:ident $(($ty:ty))? $($flag:ident)*;)*
    ) => {
        impl $name {
            /// The name of the variant this value holds (the schema definition it decoded as).
            pub fn variant_name(&self) -> &'static str {
                match self {
                    $($crate::union!(@pattern $variant [$($ty)?] [$($flag)*]) => ::core::stringify!($variant),)*
                }
            }
        }
        $($crate::union!(@from $name $variant [$($ty)?] [$($flag)*]);)*
    };
    (@pattern $variant:ident [] [unknown]) => { Self::$variant(_) };
    (@pattern $variant:ident [] [$($flag:ident)*]) => { Self::$variant };
    (@pattern $variant:ident [$ty:ty] [$($flag:ident)*]) => { Self::$variant(_) };
    (@from $name:ident $variant:ident [$ty:ty] [from]) => {
        impl ::core::convert::From<$ty> for $name {
            fn from(value: $ty) -> Self {
                Self::$variant(value)
            }
        }
    };
    (@from $name:ident $variant:ident [$ty:ty] [boxed from]) => {
        impl ::core::convert::From<$ty> for $name {
            fn from(value: $ty) -> Self {
                Self::$variant(::std::boxed::Box::new(value))
            }
        }
    };
    (@from $name:ident $variant:ident [$($ty:ty)?] [$($flag:ident)*]) => {};
    (@schema $generator:ident [] [null]) => { ::schemars::json_schema!({ "type": "null" }) };
    (@schema $generator:ident [] [unknown]) => {
        $generator.subschema_for::<$crate::UnknownMethod>()
    };
    (@schema $generator:ident [$ty:ty] [$($flag:ident)*]) => { $generator.subschema_for::<$ty>() };
}
