//! The `object!` macro: a generated struct's `Deserialize`, its [`crate::ObjectTable`] and its
//! optional-member setters, written out from one member table.

/// Writes a generated struct's `Deserialize` (one call to [`crate::decode_object`]), its
/// [`crate::ObjectTable`] and the setters of its optional members.
///
/// The generator writes the struct, its docs and `new` itself, then one `object!` call listing
/// the members. Each member line is `index field "json name" req: SlotType;` for a required
/// member (the slot type is the decoded value: boxed and/or `Option` when nullable) or
/// `index field "json name" opt with_field how: Type;` for an optional one, where `how` says
/// what its setter takes and stores:
///
/// | `how`            | setter argument         | stored                          |
/// |------------------|-------------------------|---------------------------------|
/// | `into`           | `impl Into<Type>`       | `Some(value.into())`            |
/// | `boxed`          | `impl Into<Type>`       | `Some(Box::new(value.into()))`  |
/// | `nullable`       | `Option<Type>`          | `Some(value)`                   |
/// | `nullable_boxed` | `Option<Type>`          | `Some(value.map(Box::new))`     |
///
/// The first line names the struct and the definition, then `keeps field: Value;` (undeclared
/// members kept in `field`, a `BTreeMap<String, Value>`; `keeps field with_extra_member:
/// Value;` also writes that setter) or `closed;` (`additionalProperties: false`).
///
/// ```
/// use std::collections::BTreeMap;
/// use mcpwire_support::Json;
///
/// #[derive(Debug, PartialEq)]
/// pub struct Point {
///     pub x: i64,
///     pub label: Option<String>,
///     pub extra: BTreeMap<String, Json>,
/// }
/// mcpwire_support::object! {
///     Point "Point" keeps extra with_extra_member: Json;
///     0 x "x" req: i64;
///     1 label "label" opt with_label into: String;
/// }
/// let point: Point = serde_json::from_str(r#"{"x": 1, "label": "a", "z": true}"#).unwrap();
/// assert_eq!(point.label.as_deref(), Some("a"));
/// assert_eq!(point.extra["z"].text(), "true");
/// let error = serde_json::from_str::<Point>(r#"{"label": "a"}"#).unwrap_err();
/// assert!(error.to_string().contains("missing field `x`"), "{error}");
/// let point = Point { x: 2, label: None, extra: BTreeMap::new() }.with_label("b");
/// assert_eq!(point.label.as_deref(), Some("b"));
/// ```
///
/// Every path the expansion names is absolute: a module of generated types may define its own
/// `Result` or `Option`.
#[macro_export]
macro_rules! object {
    (
        $name:ident $definition:literal keeps $extra:ident $($with_extra:ident)? : $extra_ty:ty;
        $($index:tt $field:ident $json:literal $kind:ident $($setter:ident $how:ident)? : $ty:ty;)*
    ) => {
        $crate::object!(@impl $name $definition true [$extra_ty] [$extra];
            $($index $field $json $kind [$($setter $how)?] $ty;)*);
        impl $name {
            $($crate::object!(@setter $field $json $kind [$($setter $how)?] $ty);)*
            $($crate::object!(@with_extra $with_extra $extra $extra_ty);)?
        }
    };
    (
        $name:ident $definition:literal closed;
        $($index:tt $field:ident $json:literal $kind:ident $($setter:ident $how:ident)? : $ty:ty;)*
    ) => {
        $crate::object!(@impl $name $definition false [::serde::de::IgnoredAny] [];
            $($index $field $json $kind [$($setter $how)?] $ty;)*);
        impl $name {
            $($crate::object!(@setter $field $json $kind [$($setter $how)?] $ty);)*
        }
    };
    (
        @impl $name:ident $definition:literal $keeps:literal [$extra_ty:ty] [$($extra:ident)?];
        $($index:tt $field:ident $json:literal $kind:ident [$($how:tt)*] $ty:ty;)*
    ) => {
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                $crate::decode_object(deserializer)
            }
        }
        impl<'de> $crate::ObjectTable<'de> for $name {
            const NAME: &'static str = $definition;
            const MEMBERS: &'static [&'static str] = &[$($json),*];
            const KEEPS_UNDECLARED: bool = $keeps;
            type Slots = ($(::core::option::Option<$crate::object!(@slot $kind [$($how)*] $ty)>,)*);
            type Extra = $extra_ty;
            fn empty() -> Self::Slots {
                ($($crate::object!(@none $index),)*)
            }
            fn declared(name: &str) -> ::core::option::Option<usize> {
                match name {
                    $($json => ::core::option::Option::Some($index),)*
                    _ => ::core::option::Option::None,
                }
            }
            #[allow(unused_variables)]
            fn read<A: ::serde::de::MapAccess<'de>>(
                slots: &mut Self::Slots,
                index: usize,
                map: &mut A,
            ) -> ::core::result::Result<(), A::Error> {
                match index {
                    $($index => $crate::read_member(&mut slots.$index, map, $json),)*
                    _ => ::core::result::Result::Ok(()),
                }
            }
            #[allow(unused_variables)]
            fn build<E: ::serde::de::Error>(
                slots: Self::Slots,
                extra: ::std::collections::BTreeMap<::std::string::String, Self::Extra>,
            ) -> ::core::result::Result<Self, E> {
                ::core::result::Result::Ok(Self {
                    $($field: $crate::object!(@take $kind slots.$index, $json),)*
                    $($extra: extra,)?
                })
            }
        }
    };
    (@none $index:tt) => { ::core::option::Option::None };
    (@slot req [] $ty:ty) => { $ty };
    (@slot opt [$setter:ident into] $ty:ty) => { $ty };
    (@slot opt [$setter:ident boxed] $ty:ty) => { ::std::boxed::Box<$ty> };
    (@slot opt [$setter:ident nullable] $ty:ty) => { ::core::option::Option<$ty> };
    (@slot opt [$setter:ident nullable_boxed] $ty:ty) => {
        ::core::option::Option<::std::boxed::Box<$ty>>
    };
    (@take req $slot:expr, $json:literal) => { $crate::required_member($slot, $json)? };
    (@take opt $slot:expr, $json:literal) => { $slot };
    (@setter $field:ident $json:literal req [] $ty:ty) => {};
    (@setter $field:ident $json:literal opt [$setter:ident into] $ty:ty) => {
        #[doc = ::core::concat!(" Sets the optional `", $json, "` member.")]
        #[must_use]
        pub fn $setter(mut self, $field: impl ::core::convert::Into<$ty>) -> Self {
            self.$field = ::core::option::Option::Some($field.into());
            self
        }
    };
    (@setter $field:ident $json:literal opt [$setter:ident boxed] $ty:ty) => {
        #[doc = ::core::concat!(" Sets the optional `", $json, "` member.")]
        #[must_use]
        pub fn $setter(mut self, $field: impl ::core::convert::Into<$ty>) -> Self {
            self.$field = ::core::option::Option::Some(::std::boxed::Box::new($field.into()));
            self
        }
    };
    (@setter $field:ident $json:literal opt [$setter:ident nullable] $ty:ty) => {
        #[doc = ::core::concat!(" Sets the optional `", $json, "` member.")]
        #[must_use]
        pub fn $setter(mut self, $field: ::core::option::Option<$ty>) -> Self {
            self.$field = ::core::option::Option::Some($field);
            self
        }
    };
    (@setter $field:ident $json:literal opt [$setter:ident nullable_boxed] $ty:ty) => {
        #[doc = ::core::concat!(" Sets the optional `", $json, "` member.")]
        #[must_use]
        pub fn $setter(mut self, $field: ::core::option::Option<$ty>) -> Self {
            self.$field = ::core::option::Option::Some($field.map(::std::boxed::Box::new));
            self
        }
    };
    (@with_extra with_extra_member $extra:ident $extra_ty:ty) => {
        /// Adds a member the schema does not declare (encoded after the declared ones).
        #[must_use]
        pub fn with_extra_member(
            mut self,
            name: impl ::core::convert::Into<::std::string::String>,
            value: impl ::core::convert::Into<$extra_ty>,
        ) -> Self {
            self.$extra.insert(name.into(), value.into());
            self
        }
    };
}
