//! The one `match` on [`Version`](crate::Version) of the conversions, and the member
//! questions they ask.
//!
//! A conversion is written once, against "the version's module `$m`"
//! (`$m::Tool`, `$m::ContentBlock`), and `by_version!` expands it once per version. Where the
//! versions' structs differ only by members one has and another lacks, the conversion asks
//! `mcpwire_types::mcp_if_member!` (generated from the schemas: `mcp/members.rs`), through
//! `if_member!`, `set_member!` and `refuse_member!`, instead of naming versions. What is
//! still written per version (a shape that changed, not a member added) is listed in
//! docs/types.md, *The model's conversions*.

/// `$convert!(module, args…)` expanded for the module of `$version` (`v2025_11_25`), in a
/// `match` on the version: the only place the conversions name every version.
macro_rules! by_version {
    ($version:expr, $convert:ident $(, $arg:tt)*) => {
        match $version {
            $crate::version::Version::V2024_11_05 => $convert!(v2024_11_05 $(, $arg)*),
            $crate::version::Version::V2025_03_26 => $convert!(v2025_03_26 $(, $arg)*),
            $crate::version::Version::V2025_06_18 => $convert!(v2025_06_18 $(, $arg)*),
            $crate::version::Version::V2025_11_25 => $convert!(v2025_11_25 $(, $arg)*),
            $crate::version::Version::V2026_07_28 => $convert!(v2026_07_28 $(, $arg)*),
        }
    };
}
pub(crate) use by_version;

/// The first block where the struct `$ty` of module `$m` has the field `$field`, else the
/// second (the generated `mcp_if_member!`). `$m` must be the version module's own name
/// (`v2024_11_05`, as `by_version!` passes it), never an alias (`use v2024_11_05 as m`): the
/// table is keyed on the name, and answers "has it" for a name it does not know.
macro_rules! if_member {
    ($m:ident, $ty:ident, $field:ident, $has:block, $lacks:block) => {
        mcpwire_types::mcp_if_member!($m, $ty, $field, $has, $lacks)
    };
}
pub(crate) use if_member;

/// `$out.$field = $value;` where `$m::$ty` has `$field`; nothing where it lacks it (the
/// value is then not evaluated).
macro_rules! set_member {
    ($m:ident, $ty:ident, $out:ident . $field:ident = $value:expr) => {
        $crate::by_version::if_member!(
            $m,
            $ty,
            $field,
            {
                $out.$field = $value;
            },
            {}
        )
    };
}
pub(crate) use set_member;

/// Where `$m::$ty` lacks `$field`: returns `Err($error)` when `$present` (what the model holds
/// for it) is true. Nothing where the struct has the field.
macro_rules! refuse_member {
    ($m:ident, $ty:ident, $field:ident, $present:expr, $error:expr) => {
        $crate::by_version::if_member!($m, $ty, $field, {}, {
            if $present {
                return Err($error);
            }
        })
    };
}
pub(crate) use refuse_member;
