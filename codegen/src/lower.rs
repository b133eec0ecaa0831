//! Lowering: JSON Schema → intermediate model.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::error::{CodegenError, Result};
use crate::model::{
    ConstValue, Constraints, Extra, Field, Kind, Module, StringEnum, Struct, Ty, TypeDef, Union,
    Variant,
};
use crate::names::{is_type_name, pascal, pascal_fragment, snake, type_name, unique};
use crate::schema::{ANNOTATIONS, Document, escape};

/// Keywords that constrain values without shaping the type: not enforced at decode, so every
/// place they appear is listed in one warning.
const VALIDATION: &[&str] = &[
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "contentMediaType",
    "contentEncoding",
    "propertyNames",
    "contains",
    "minContains",
    "maxContains",
    "dependencies",
    "dependentRequired",
    "dependentSchemas",
    "if",
    "then",
    "else",
];

/// The keyword a decidable `not: {"required": [...]}` becomes on its way to the struct (the
/// members that may not all be present); never read from a schema.
const NOT_ALL_PRESENT: &str = "$mcpwire:notAllPresent";

/// Whether `key` leaves the generated type as it is: an annotation or a validation keyword.
fn shapes_nothing(key: &str) -> bool {
    ANNOTATIONS.contains(&key) || VALIDATION.contains(&key)
}

/// Keywords that shape the generated type.
const STRUCTURAL: &[&str] = &[
    "patternProperties",
    "prefixItems",
    "additionalItems",
    "not",
    "$ref",
    "type",
    "const",
    "enum",
    "anyOf",
    "oneOf",
    "allOf",
    "required",
    "properties",
    "additionalProperties",
    "items",
];

/// A lowered schema: its type and whether `null` is admitted besides it.
struct Lowered {
    ty: Ty,
    nullable: bool,
}

impl Lowered {
    fn plain(ty: Ty) -> Self {
        Self {
            ty,
            nullable: false,
        }
    }
}

/// Where a schema sits: the name a new type there would get, and its context.
#[derive(Clone)]
struct Site {
    /// Name for a type created here.
    name: String,
    /// Whether `name` is a reserved definition name to use as is.
    exact: bool,
    /// The top-level definition this site belongs to.
    definition: String,
    /// The member name when the schema is a property's.
    member: Option<String>,
}

impl Site {
    fn nested(&self, suffix: &str, member: Option<&str>) -> Site {
        Site {
            name: format!("{}{}", self.name, suffix),
            exact: false,
            definition: self.definition.clone(),
            member: member.map(str::to_owned),
        }
    }
}

/// Lowers every definition of `doc` into a [`Module`] (without dispatch decisions).
pub fn lower(doc: &Document) -> Result<Module> {
    let rust_names = type_names(&doc.definition_names());
    let mut lowerer = Lowerer {
        doc,
        types: BTreeMap::new(),
        taken: rust_names.values().cloned().collect(),
        consts: BTreeMap::new(),
        shared: doc
            .definition_names()
            .into_iter()
            .filter_map(|n| {
                let schema = doc.definition(&n)?;
                is_shareable(schema).then(|| (schema.to_string(), rust_names[&n].clone()))
            })
            .collect(),
        rust_names,
        depth: 0,
        unenforced: BTreeMap::new(),
        undecided_not: Vec::new(),
    };
    for definition in doc.definition_names() {
        let Some(schema) = doc.definition(&definition) else {
            continue;
        };
        let name = lowerer.rust_names[&definition].clone();
        let pointer = doc.definition_pointer(&definition);
        let site = Site {
            name: name.clone(),
            exact: true,
            definition: definition.clone(),
            member: None,
        };
        let lowered = lowerer.lower(schema, &pointer, &site)?;
        if lowered.ty != Ty::Named(name.clone()) || lowered.nullable {
            let ty = if lowered.nullable {
                return Err(CodegenError::at(
                    pointer,
                    "a nullable definition must be a union",
                ));
            } else {
                lowered.ty
            };
            lowerer.insert(TypeDef {
                constraints: Constraints::of(schema),
                name: name.clone(),
                pointer,
                definition,
                kind: Kind::Alias(ty),
            });
        }
    }
    for (definition, name) in &lowerer.rust_names {
        let pointer = doc.definition_pointer(definition);
        let mut seen = BTreeSet::new();
        let mut current = name.clone();
        loop {
            if !seen.insert(current.clone()) {
                return Err(CodegenError::at(
                    pointer,
                    "the definition is only a reference to itself (through aliases)",
                ));
            }
            match lowerer.types.get(&current).map(|t| &t.kind) {
                Some(Kind::Alias(Ty::Named(next))) => current = next.clone(),
                Some(_) => break,
                None => {
                    return Err(CodegenError::at(
                        pointer,
                        "the definition is only a reference to itself",
                    ));
                }
            }
        }
    }
    for def in lowerer.types.values() {
        if matches!(def.kind, Kind::Union(_)) && union_reaches_itself(&lowerer.types, &def.name) {
            return Err(CodegenError::at(
                def.pointer.clone(),
                "a variant is this union itself (through unions or aliases, with no object or \
                 array in between): no value could ever be decoded",
            ));
        }
    }
    let definitions = lowerer.rust_names.clone().into_iter().collect();
    let mut types: Vec<TypeDef> = std::mem::take(&mut lowerer.types).into_values().collect();
    types.sort_by(|a, b| a.name.cmp(&b.name));
    let unenforced = lowerer
        .unenforced
        .into_iter()
        .map(|(k, v)| (k, v.into_iter().collect()))
        .collect();
    let mut module = Module {
        types,
        definitions,
        unenforced,
        undecided_not: lowerer.undecided_not,
    };
    mark_boxes(&mut module);
    Ok(module)
}

/// Whether union `name` is one of its own variants, through unions and aliases only.
fn union_reaches_itself(types: &BTreeMap<String, TypeDef>, name: &str) -> bool {
    let mut stack = vec![name.to_owned()];
    let mut seen = BTreeSet::new();
    while let Some(current) = stack.pop() {
        if !seen.insert(current.clone()) {
            continue;
        }
        let next: Vec<&Ty> = match types.get(&current).map(|t| &t.kind) {
            Some(Kind::Union(u)) => u.variants.iter().map(|v| &v.ty).collect(),
            Some(Kind::Alias(ty)) => vec![ty],
            _ => Vec::new(),
        };
        for ty in next {
            if let Ty::Named(n) = ty {
                if n == name {
                    return true;
                }
                stack.push(n.clone());
            }
        }
    }
    false
}

/// The Rust type name of each definition: the definition name itself when it is a usable Rust
/// type name (`CallToolRequest`, `JSONRPCMessage`), else its `PascalCase` form (`my-type` →
/// `MyType`, `2fa` → `V2fa`, `Self` → `SelfValue`), made unique against the others.
fn type_names(definitions: &[String]) -> BTreeMap<String, String> {
    // A usable name that starts in lower case (`infoObject`) is `PascalCase`d too, so the
    // type is not a `non_camel_case_types` warning in the user's crate.
    let as_is = |n: &str| is_type_name(n) && n.starts_with(|c: char| !c.is_ascii_lowercase());
    let mut taken: BTreeSet<String> = definitions.iter().filter(|n| as_is(n)).cloned().collect();
    definitions
        .iter()
        .map(|n| {
            let rust = if as_is(n) {
                n.clone()
            } else if is_type_name(n) {
                unique(pascal(n), &mut taken)
            } else {
                unique(type_name(n), &mut taken)
            };
            (n.clone(), rust)
        })
        .collect()
}

struct Lowerer<'d> {
    doc: &'d Document,
    types: BTreeMap<String, TypeDef>,
    taken: BTreeSet<String>,
    /// Const markers by (base name, value).
    consts: BTreeMap<(String, ConstValue), String>,
    /// Definitions by their schema text, so an inline copy of a definition reuses its type.
    shared: BTreeMap<String, String>,
    /// The Rust type name of each definition.
    rust_names: BTreeMap<String, String>,
    /// How many schemas deep the lowering is.
    depth: usize,
    /// Keywords not enforced at decode, with every pointer they appear at.
    unenforced: BTreeMap<String, BTreeSet<String>>,
    /// Where a `not` could not be decided at decode.
    undecided_not: Vec<String>,
}

/// How deep schemas may nest (inline, not through `$ref`) before lowering gives up.
const MAX_DEPTH: usize = 64;

/// Whether a schema would create a named type, so an identical inline copy should reuse it.
fn is_shareable(schema: &Value) -> bool {
    schema.get("properties").is_some()
        || schema.get("anyOf").is_some()
        || schema.get("oneOf").is_some()
        || schema.get("type") == Some(&Value::from("array"))
}

impl Lowerer<'_> {
    fn insert(&mut self, def: TypeDef) {
        self.types.insert(def.name.clone(), def);
    }

    /// Defines type `name` of `kind` for the schema at `ptr`, with no constraints of its own,
    /// and returns it as a type.
    fn define(&mut self, name: String, ptr: &str, site: &Site, kind: Kind) -> Ty {
        self.insert(TypeDef {
            constraints: Constraints::default(),
            name: name.clone(),
            pointer: ptr.to_owned(),
            definition: site.definition.clone(),
            kind,
        });
        Ty::Named(name)
    }

    fn name_for(&mut self, site: &Site) -> String {
        if site.exact {
            site.name.clone()
        } else {
            unique(site.name.clone(), &mut self.taken)
        }
    }

    fn lower(&mut self, schema: &Value, ptr: &str, site: &Site) -> Result<Lowered> {
        if self.depth >= MAX_DEPTH {
            return Err(CodegenError::at(
                ptr,
                "the schema nests too deep (a cycle through `allOf`?)",
            ));
        }
        self.depth += 1;
        let lowered = self.lower_inner(schema, ptr, site);
        self.depth -= 1;
        lowered
    }

    fn lower_inner(&mut self, schema: &Value, ptr: &str, site: &Site) -> Result<Lowered> {
        let obj = match schema {
            Value::Bool(true) => return Ok(Lowered::plain(Ty::Any)),
            Value::Object(obj) => obj,
            _ => {
                return Err(CodegenError::at(
                    ptr,
                    "a schema must be an object or `true`",
                ));
            }
        };
        for key in obj.keys() {
            if !shapes_nothing(key) && !STRUCTURAL.contains(&key.as_str()) && key != NOT_ALL_PRESENT
            {
                return Err(CodegenError::at(
                    format!("{ptr}/{}", escape(key)),
                    format!("unsupported keyword `{key}`"),
                ));
            }
        }
        for key in obj.keys() {
            if VALIDATION.contains(&key.as_str()) {
                self.note_unenforced(key, &format!("{ptr}/{}", escape(key)));
            }
        }
        if let Some(not) = obj.get("not") {
            let reduced = self.reduce_not(obj, not, ptr)?;
            return self.lower(&Value::Object(reduced), ptr, site);
        }
        if obj.contains_key("$ref")
            && !obj.contains_key("allOf")
            && structural_keys(obj).iter().any(|k| *k != "$ref")
        {
            // `$ref` beside other keywords (2020-12): both apply, as with `allOf`.
            let mut merged: Map<String, Value> = obj
                .iter()
                .filter(|(k, _)| *k != "$ref")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let mut reference = Map::new();
            reference.insert("$ref".into(), obj["$ref"].clone());
            merged.insert("allOf".into(), Value::Array(vec![Value::Object(reference)]));
            return self.lower(&Value::Object(merged), ptr, site);
        }
        if !site.exact
            && is_shareable(schema)
            && let Some(name) = self.shared.get(&schema.to_string())
        {
            return Ok(Lowered::plain(Ty::Named(name.clone())));
        }
        if obj.contains_key("allOf") {
            let merged = self.merge_all_of(obj, ptr, 0)?;
            return self.lower(&Value::Object(merged), ptr, site);
        }
        if let Some(reference) = obj.get("$ref") {
            if let Some(extra) = structural_keys(obj).into_iter().find(|k| *k != "$ref") {
                return Err(CodegenError::at(
                    format!("{ptr}/{}", escape(extra)),
                    format!("`{extra}` beside `$ref` is not supported"),
                ));
            }
            let reference = reference.as_str().ok_or_else(|| {
                CodegenError::at(format!("{ptr}/$ref"), "`$ref` must be a string")
            })?;
            if is_remote(reference) {
                // A schema on the network is never fetched: any value, listed as not enforced.
                self.note_unenforced("$ref", &format!("{ptr}/$ref"));
                return Ok(Lowered::plain(Ty::Any));
            }
            let target = self.doc.ref_target(reference, &format!("{ptr}/$ref"))?;
            return Ok(Lowered::plain(Ty::Named(self.rust_names[&target].clone())));
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(list) = obj.get(key) {
                if let Some(extra) = structural_keys(obj)
                    .into_iter()
                    .find(|k| *k != key && *k != "type")
                {
                    return Err(CodegenError::at(
                        format!("{ptr}/{}", escape(extra)),
                        format!("`{extra}` beside `{key}` is not supported"),
                    ));
                }
                let list = list
                    .as_array()
                    .ok_or_else(|| CodegenError::at(format!("{ptr}/{key}"), "must be an array"))?;
                return self.lower_union(list, &format!("{ptr}/{key}"), site, key == "oneOf");
            }
        }
        if let Some(value) = obj.get("const") {
            return self
                .lower_const(value, &format!("{ptr}/const"), site)
                .map(Lowered::plain);
        }
        if let Some(values) = obj.get("enum") {
            return self
                .lower_enum(values, ptr, site, false)
                .map(Lowered::plain);
        }
        match obj.get("type") {
            Some(Value::String(t)) => self.lower_typed(t, obj, ptr, site).map(Lowered::plain),
            Some(Value::Array(types)) => self.lower_type_array(types, obj, ptr, site),
            Some(_) => Err(CodegenError::at(
                format!("{ptr}/type"),
                "`type` must be a string or an array",
            )),
            None => {
                if obj.contains_key("properties")
                    || obj.contains_key("additionalProperties")
                    || obj.contains_key("patternProperties")
                    || obj.contains_key("required")
                {
                    self.lower_object(obj, ptr, site).map(Lowered::plain)
                } else if obj.contains_key("items") || obj.contains_key("prefixItems") {
                    self.lower_typed("array", obj, ptr, site)
                        .map(Lowered::plain)
                } else {
                    Ok(Lowered::plain(Ty::Any))
                }
            }
        }
    }

    fn lower_typed(
        &mut self,
        t: &str,
        obj: &Map<String, Value>,
        ptr: &str,
        site: &Site,
    ) -> Result<Ty> {
        Ok(match t {
            "string" => Ty::String,
            "integer" => Ty::Integer,
            "number" => Ty::Number,
            "boolean" => Ty::Bool,
            "null" => Ty::Null,
            "array" => {
                if let Some(tuple) = self.lower_tuple(obj, ptr, site)? {
                    return Ok(tuple);
                }
                match obj.get("items") {
                    None => Ty::Array(Box::new(Ty::Any)),
                    Some(items) => {
                        let items_ptr = format!("{ptr}/items");
                        let item_site = site.nested("Item", None);
                        let item = self.lower(items, &items_ptr, &item_site)?;
                        Ty::Array(Box::new(self.non_null(item, &items_ptr, &item_site)?))
                    }
                }
            }
            "object" => self.lower_object(obj, ptr, site)?,
            other => {
                return Err(CodegenError::at(
                    format!("{ptr}/type"),
                    format!("unknown type {other:?}"),
                ));
            }
        })
    }

    fn lower_type_array(
        &mut self,
        types: &[Value],
        obj: &Map<String, Value>,
        ptr: &str,
        site: &Site,
    ) -> Result<Lowered> {
        let mut names = Vec::new();
        for (i, t) in types.iter().enumerate() {
            let t = t
                .as_str()
                .ok_or_else(|| CodegenError::at(format!("{ptr}/type/{i}"), "must be a string"))?;
            names.push(t.to_owned());
        }
        let nullable = names.iter().any(|t| t == "null");
        let non_null: Vec<&String> = names.iter().filter(|t| *t != "null").collect();
        match non_null.as_slice() {
            [] => Ok(Lowered::plain(Ty::Null)),
            [single] => {
                let ty = self.lower_typed(single, obj, ptr, site)?;
                Ok(Lowered { ty, nullable })
            }
            _ => {
                let mut variants = Vec::new();
                for t in &names {
                    let ty = self.lower_typed(
                        t,
                        &token_only(obj, t),
                        ptr,
                        &site.nested(&pascal(t), None),
                    )?;
                    variants.push(Variant::unboxed(ty));
                }
                self.make_union(variants, ptr, site, false)
            }
        }
    }

    fn lower_union(
        &mut self,
        list: &[Value],
        ptr: &str,
        site: &Site,
        one_of: bool,
    ) -> Result<Lowered> {
        if let Some(open) = self.open_enum(list, ptr, site)? {
            return Ok(Lowered::plain(open));
        }
        let mut variants = Vec::new();
        for (i, member) in list.iter().enumerate() {
            let member_ptr = format!("{ptr}/{i}");
            // A bare `type` array inside a union contributes its types directly.
            if let Some(Value::Array(types)) = member.get("type") {
                let only_types = member
                    .as_object()
                    .map(|m| {
                        structural_keys(m)
                            .iter()
                            .all(|k| *k == "type" || *k == "items")
                    })
                    .unwrap_or(false);
                if only_types && member.get("$ref").is_none() {
                    for (j, t) in types.iter().enumerate() {
                        let t = t.as_str().ok_or_else(|| {
                            CodegenError::at(format!("{member_ptr}/type/{j}"), "must be a string")
                        })?;
                        let obj = token_only(member.as_object().expect("checked"), t);
                        let ty =
                            self.lower_typed(t, &obj, &member_ptr, &site.nested(&pascal(t), None))?;
                        variants.push(Variant::unboxed(ty));
                    }
                    continue;
                }
            }
            let lowered = self.lower(
                member,
                &member_ptr,
                &site.nested(&format!("Variant{i}"), None),
            )?;
            if lowered.nullable {
                variants.push(Variant {
                    name: "Null".into(),
                    ty: Ty::Null,
                    boxed: false,
                });
            }
            variants.push(Variant::unboxed(lowered.ty));
        }
        self.make_union(variants, ptr, site, one_of)
    }

    fn make_union(
        &mut self,
        variants: Vec<Variant>,
        ptr: &str,
        site: &Site,
        one_of: bool,
    ) -> Result<Lowered> {
        let mut seen = BTreeSet::new();
        let mut unique_variants: Vec<Variant> = Vec::new();
        for v in variants {
            if unique_variants.iter().any(|u| u.ty == v.ty) {
                continue;
            }
            let name = unique(v.name, &mut seen);
            unique_variants.push(Variant { name, ..v });
        }
        if unique_variants.len() == 1 {
            return Ok(Lowered::plain(unique_variants.remove(0).ty));
        }
        let name = self.name_for(site);
        Ok(Lowered::plain(self.define(
            name,
            ptr,
            site,
            Kind::Union(Union {
                variants: unique_variants,
                dispatch: None,
                unknown_method: false,
                one_of,
                admitted: Vec::new(),
                checks: Vec::new(),
            }),
        )))
    }

    /// `anyOf: [{enum: [...strings]}, {type: string}]` → an open string enum.
    fn open_enum(&mut self, list: &[Value], ptr: &str, site: &Site) -> Result<Option<Ty>> {
        if list.len() != 2 {
            return Ok(None);
        }
        let is_plain_string = |v: &Value| {
            v.as_object()
                .is_some_and(|m| structural_keys(m) == ["type"] && m["type"] == "string")
        };
        let enum_index = list
            .iter()
            .position(|v| v.get("enum").is_some_and(Value::is_array));
        match enum_index {
            Some(i) if is_plain_string(&list[1 - i]) => {
                let values = &list[i]["enum"];
                self.lower_enum(values, &format!("{ptr}/{i}"), site, true)
                    .map(Some)
            }
            _ => Ok(None),
        }
    }

    fn lower_enum(&mut self, values: &Value, ptr: &str, site: &Site, open: bool) -> Result<Ty> {
        let list = values
            .as_array()
            .ok_or_else(|| CodegenError::at(format!("{ptr}/enum"), "must be an array"))?;
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        if list.is_empty() {
            return Err(CodegenError::at(
                format!("{ptr}/enum"),
                "an empty enum admits no value",
            ));
        }
        if !list.iter().all(Value::is_string) {
            if open {
                return Err(CodegenError::at(
                    format!("{ptr}/enum"),
                    "an open enum must list only strings",
                ));
            }
            return self.lower_value_enum(list, ptr, site);
        }
        for v in list {
            let s = v.as_str().expect("checked");
            out.push((unique(pascal(s), &mut seen), s.to_owned()));
        }
        if open && seen.contains("Unknown") {
            return Err(CodegenError::at(
                format!("{ptr}/enum"),
                "an open enum cannot have a value named Unknown",
            ));
        }
        let name = self.name_for(site);
        Ok(self.define(
            name,
            ptr,
            site,
            Kind::Enum(StringEnum { values: out, open }),
        ))
    }

    fn lower_const(&mut self, value: &Value, ptr: &str, site: &Site) -> Result<Ty> {
        let base = site
            .member
            .as_deref()
            .map(pascal)
            .unwrap_or_else(|| site.name.clone());
        let (value, suffix) = match value {
            Value::String(s) => (ConstValue::Str(s.clone()), pascal_fragment(s)),
            Value::Number(n) if n.as_i64().is_some() => {
                let i = n.as_i64().expect("checked");
                let suffix = if i < 0 {
                    format!("Minus{}", i.unsigned_abs())
                } else {
                    i.to_string()
                };
                (ConstValue::Int(i), suffix)
            }
            Value::Bool(b) => (ConstValue::Bool(*b), pascal_fragment(&b.to_string())),
            Value::Number(n) => {
                let text = n.to_string();
                let suffix = text.replace('-', "Minus").replace(['.', '+'], "_");
                (ConstValue::Number(text), suffix)
            }
            Value::Null => return Ok(Ty::Null),
            _ => {
                return Err(CodegenError::at(
                    ptr,
                    "only string, number, boolean and null constants are supported",
                ));
            }
        };
        let key = (base.clone(), value.clone());
        if let Some(name) = self.consts.get(&key) {
            return Ok(Ty::Named(name.clone()));
        }
        let name = if site.exact && site.member.is_none() {
            site.name.clone()
        } else {
            let joined = if base.ends_with(|c: char| c.is_ascii_digit())
                && suffix.starts_with(|c: char| c.is_ascii_digit())
            {
                format!("{base}_{suffix}")
            } else {
                format!("{base}{suffix}")
            };
            unique(joined, &mut self.taken)
        };
        self.consts.insert(key, name.clone());
        Ok(self.define(name, ptr, site, Kind::Const(value)))
    }

    fn lower_object(&mut self, obj: &Map<String, Value>, ptr: &str, site: &Site) -> Result<Ty> {
        if obj.contains_key("patternProperties") {
            let folded = self.fold_pattern_properties(obj, ptr)?;
            return self.lower_object(&folded, ptr, site);
        }
        let empty = Map::new();
        let props = match obj.get("properties") {
            None => &empty,
            Some(Value::Object(p)) => p,
            Some(_) => {
                return Err(CodegenError::at(
                    format!("{ptr}/properties"),
                    "must be an object",
                ));
            }
        };
        let required: Vec<String> = match obj.get("required") {
            None => Vec::new(),
            Some(Value::Array(list)) => list
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    v.as_str().map(str::to_owned).ok_or_else(|| {
                        CodegenError::at(format!("{ptr}/required/{i}"), "must be a string")
                    })
                })
                .collect::<Result<_>>()?,
            Some(_) => {
                return Err(CodegenError::at(
                    format!("{ptr}/required"),
                    "must be an array",
                ));
            }
        };
        let not_all_present: Vec<String> = match obj.get(NOT_ALL_PRESENT) {
            Some(Value::Array(names)) => names
                .iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect(),
            _ => Vec::new(),
        };
        let ap_ptr = format!("{ptr}/additionalProperties");
        if props.is_empty() && required.is_empty() && not_all_present.is_empty() {
            return Ok(match obj.get("additionalProperties") {
                None | Some(Value::Bool(true)) => Ty::Map(Box::new(Ty::Any)),
                Some(Value::Bool(false)) => {
                    let name = self.name_for(site);
                    self.define(
                        name,
                        ptr,
                        site,
                        Kind::Struct(Struct {
                            fields: Vec::new(),
                            extra: Extra::Closed,
                            not_all_present: Vec::new(),
                        }),
                    )
                }
                Some(schema) => {
                    let value_site = site.nested("Value", None);
                    let value = self.lower(schema, &ap_ptr, &value_site)?;
                    Ty::Map(Box::new(self.non_null(value, &ap_ptr, &value_site)?))
                }
            });
        }
        let name = self.name_for(site);
        let mut names: Vec<&String> = props.keys().collect();
        names.sort();
        let mut rust_names = BTreeSet::new();
        let mut fields = Vec::new();
        let struct_site = Site {
            name: name.clone(),
            exact: false,
            definition: site.definition.clone(),
            member: None,
        };
        for json_name in names {
            let prop_ptr = format!("{ptr}/properties/{}", escape(json_name));
            let lowered = self.lower(
                &props[json_name],
                &prop_ptr,
                &struct_site.nested(&pascal(json_name), Some(json_name)),
            )?;
            fields.push(Field {
                json_name: json_name.clone(),
                rust_name: unique(snake(json_name), &mut rust_names),
                ty: lowered.ty,
                required: required.contains(json_name),
                required_rank: required
                    .iter()
                    .position(|r| r == json_name)
                    .unwrap_or(usize::MAX),
                nullable: lowered.nullable,
                boxed: false,
                constraints: Constraints::of(&props[json_name]),
            });
        }
        for (i, r) in required.iter().enumerate() {
            if !props.contains_key(r) {
                return Err(CodegenError::at(
                    format!("{ptr}/required/{i}"),
                    format!("required member {r:?} is not declared in `properties`"),
                ));
            }
        }
        let extra = match obj.get("additionalProperties") {
            None => Extra::Implicit,
            Some(Value::Bool(false)) => Extra::Closed,
            Some(Value::Bool(true)) => Extra::Declared(Ty::Any),
            Some(schema) => {
                let extra_site = struct_site.nested("Extra", None);
                let value = self.lower(schema, &ap_ptr, &extra_site)?;
                Extra::Declared(self.non_null(value, &ap_ptr, &extra_site)?)
            }
        };
        Ok(self.define(
            name,
            ptr,
            site,
            Kind::Struct(Struct {
                fields,
                extra,
                not_all_present,
            }),
        ))
    }

    /// Records that `keyword` at `pointer` is not enforced at decode.
    fn note_unenforced(&mut self, keyword: &str, pointer: &str) {
        self.unenforced
            .entry(keyword.to_owned())
            .or_default()
            .insert(pointer.to_owned());
    }

    /// The type of a lowered schema that may be `null`: a union of the type and `null` when
    /// it is nullable (an array item, a map value), else the type itself.
    fn non_null(&mut self, lowered: Lowered, ptr: &str, site: &Site) -> Result<Ty> {
        if !lowered.nullable {
            return Ok(lowered.ty);
        }
        let variants = vec![
            Variant::unboxed(lowered.ty),
            Variant {
                name: "Null".into(),
                ty: Ty::Null,
                boxed: false,
            },
        ];
        Ok(self.make_union(variants, ptr, site, false)?.ty)
    }

    /// `prefixItems` (2020-12) or an `items` array (draft-07): a tuple when no further item
    /// is admitted and every listed one is required (`minItems`); otherwise an array of any
    /// values, the item types listed as not enforced. `None` when the schema lists no items.
    fn lower_tuple(
        &mut self,
        obj: &Map<String, Value>,
        ptr: &str,
        site: &Site,
    ) -> Result<Option<Ty>> {
        let (key, list, rest) = match (obj.get("prefixItems"), obj.get("items")) {
            (Some(Value::Array(list)), rest) => ("prefixItems", list, rest),
            (None, Some(Value::Array(list))) => ("items", list, obj.get("additionalItems")),
            (Some(_), _) => {
                return Err(CodegenError::at(
                    format!("{ptr}/prefixItems"),
                    "must be an array",
                ));
            }
            _ => return Ok(None),
        };
        let closed = rest == Some(&Value::Bool(false));
        let min = obj.get("minItems").and_then(Value::as_u64).unwrap_or(0);
        if !closed || min < list.len() as u64 {
            self.note_unenforced(key, &format!("{ptr}/{key}"));
            return Ok(Some(Ty::Array(Box::new(Ty::Any))));
        }
        let mut items = Vec::new();
        for (i, item) in list.iter().enumerate() {
            let item_ptr = format!("{ptr}/{key}/{i}");
            let item_site = site.nested(&format!("Item{i}"), None);
            let lowered = self.lower(item, &item_ptr, &item_site)?;
            items.push(self.non_null(lowered, &item_ptr, &item_site)?);
        }
        // The tuple's length enforces the item counts.
        for keyword in ["minItems", "maxItems"] {
            if let Some(at) = self.unenforced.get_mut(keyword) {
                at.remove(&format!("{ptr}/{keyword}"));
                if at.is_empty() {
                    self.unenforced.remove(keyword);
                }
            }
        }
        Ok(Some(Ty::Tuple(items)))
    }

    /// An `enum` listing numbers, booleans or `null` (maybe with strings): a union with one
    /// constant marker per value.
    fn lower_value_enum(&mut self, list: &[Value], ptr: &str, site: &Site) -> Result<Ty> {
        let marker_site = Site {
            name: site.name.clone(),
            exact: false,
            definition: site.definition.clone(),
            member: site.member.clone(),
        };
        let mut variants = Vec::new();
        for (i, value) in list.iter().enumerate() {
            let ty = self.lower_const(value, &format!("{ptr}/enum/{i}"), &marker_site)?;
            variants.push(Variant::unboxed(ty));
        }
        Ok(self.make_union(variants, ptr, site, false)?.ty)
    }

    /// `patternProperties` folded into `additionalProperties`: the members matching a pattern
    /// are kept as the pattern's type when every pattern has the same schema and no other
    /// member is admitted (`additionalProperties` false or the same schema); otherwise as any
    /// value. Member names are not checked against the patterns (listed as not enforced).
    fn fold_pattern_properties(
        &mut self,
        obj: &Map<String, Value>,
        ptr: &str,
    ) -> Result<Map<String, Value>> {
        let patterns = obj["patternProperties"].as_object().ok_or_else(|| {
            CodegenError::at(format!("{ptr}/patternProperties"), "must be an object")
        })?;
        self.note_unenforced("patternProperties", &format!("{ptr}/patternProperties"));
        let mut schemas: Vec<&Value> = patterns.values().collect();
        schemas.dedup();
        let additional = obj.get("additionalProperties");
        let value = match (schemas.as_slice(), additional) {
            ([one], None | Some(Value::Bool(false))) => (*one).clone(),
            ([one], Some(other)) if *one == other => (*one).clone(),
            ([], _) => additional.cloned().unwrap_or(Value::Bool(true)),
            _ => Value::Bool(true),
        };
        let mut folded: Map<String, Value> = obj
            .iter()
            .filter(|(k, _)| *k != "patternProperties")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        folded.insert("additionalProperties".into(), value);
        Ok(folded)
    }

    /// `not` where decode can decide it, as a schema without `not`:
    /// - `not: false` admits everything; `not: true` nothing (an error);
    /// - `not: {"type": …}` removes those types from the schema's own (all types when it has
    ///   no `type`);
    /// - `not: {"const": …}` / `not: {"enum": […]}` removes those values from the schema's
    ///   own `enum` or `const` (a `boolean` becomes the other constant);
    /// - `not: {"required": […]}` on an object: the struct refuses an object with all those
    ///   members present;
    /// - `not: {"$ref": …}`: the same, for the schema referred to.
    ///
    /// Any other `not` is left out and named in a warning of its own (never dropped
    /// silently).
    fn reduce_not(
        &mut self,
        obj: &Map<String, Value>,
        not: &Value,
        ptr: &str,
    ) -> Result<Map<String, Value>> {
        let not_ptr = format!("{ptr}/not");
        let mut rest: Map<String, Value> = obj
            .iter()
            .filter(|(k, _)| *k != "not")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let not = self.resolve_not(not, &not_ptr)?;
        let n = match &not {
            Value::Bool(false) => return Ok(rest),
            Value::Bool(true) => {
                return Err(CodegenError::at(not_ptr, "`not: true` admits no value"));
            }
            Value::Object(n) => n,
            _ => return Err(CodegenError::at(not_ptr, "`not` must be a schema")),
        };
        // Beside `required`, members that admit anything and `type: object` (the schema's
        // own type) change nothing.
        let trivial = |k: &str| match k {
            "properties" => n["properties"].as_object().is_some_and(|p| {
                p.values().all(|v| {
                    *v == Value::Bool(true)
                        || v.as_object()
                            .is_some_and(|o| o.keys().all(|k| ANNOTATIONS.contains(&k.as_str())))
                })
            }),
            "type" => n.contains_key("required") && n["type"] == "object",
            _ => ANNOTATIONS.contains(&k),
        };
        let keys: Vec<&str> = n
            .keys()
            .map(String::as_str)
            .filter(|k| !trivial(k))
            .collect();
        let reduced = match keys.as_slice() {
            [] => {
                return Err(CodegenError::at(
                    not_ptr,
                    "`not` of a schema that admits everything admits no value",
                ));
            }
            ["type"] => Some(self.not_types(rest, n, &not_ptr)?),
            ["const"] => {
                not_values(&mut rest, std::slice::from_ref(&n["const"]), &not_ptr)?.then_some(rest)
            }
            ["enum"] => match &n["enum"] {
                Value::Array(values) => not_values(&mut rest, values, &not_ptr)?.then_some(rest),
                _ => return Err(CodegenError::at(not_ptr, "`enum` must be an array")),
            },
            ["required"] if describes_object(&rest) => {
                let names = n["required"].clone();
                if !names
                    .as_array()
                    .is_some_and(|a| a.iter().all(Value::is_string))
                {
                    return Err(CodegenError::at(
                        format!("{not_ptr}/required"),
                        "must be an array of strings",
                    ));
                }
                rest.insert(NOT_ALL_PRESENT.into(), names);
                Some(rest)
            }
            _ => None,
        };
        Ok(match reduced {
            Some(schema) => schema,
            None => {
                self.undecided_not.push(not_ptr);
                obj.iter()
                    .filter(|(k, _)| *k != "not")
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            }
        })
    }

    /// The schema a `not` applies: a lone `$ref` (beside annotations) followed to its target.
    fn resolve_not(&self, not: &Value, ptr: &str) -> Result<Value> {
        let mut current = not.clone();
        for _ in 0..32 {
            let Some(reference) = current.as_object().and_then(|n| {
                let lone = n
                    .keys()
                    .all(|k| k == "$ref" || ANNOTATIONS.contains(&k.as_str()));
                n.get("$ref").and_then(Value::as_str).filter(|_| lone)
            }) else {
                return Ok(current);
            };
            let target = self.doc.ref_target(reference, &format!("{ptr}/$ref"))?;
            current = self.doc.definition(&target).expect("resolved").clone();
        }
        Err(CodegenError::at(
            ptr,
            "`not` references nest too deep (a cycle?)",
        ))
    }

    /// `not: {"type": …}`: the schema's own types without those.
    fn not_types(
        &mut self,
        mut rest: Map<String, Value>,
        n: &Map<String, Value>,
        not_ptr: &str,
    ) -> Result<Map<String, Value>> {
        let excluded: Vec<String> = match n.get("type") {
            Some(Value::String(t)) => vec![t.clone()],
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(|t| t.as_str().map(str::to_owned))
                .collect(),
            _ => Vec::new(),
        };
        if excluded.is_empty() {
            return Err(CodegenError::at(
                not_ptr,
                "`not: {\"type\": …}` names no type",
            ));
        }
        const ALL: [&str; 6] = ["object", "array", "string", "number", "boolean", "null"];
        let own: Vec<String> = match rest.get("type") {
            Some(Value::String(t)) => vec![t.clone()],
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(|t| t.as_str().map(str::to_owned))
                .collect(),
            _ if structural_keys(&rest).is_empty() => ALL.iter().map(|t| (*t).to_owned()).collect(),
            _ => {
                return Err(CodegenError::at(
                    not_ptr,
                    "`not` beside keywords other than `type` is not supported",
                ));
            }
        };
        // `integer` goes with `number`: excluding numbers excludes integers too.
        let is_excluded = |t: &String| {
            excluded.contains(t) || (t == "integer" && excluded.iter().any(|e| e == "number"))
        };
        let kept: Vec<Value> = own
            .iter()
            .filter(|t| !is_excluded(t))
            .map(|t| Value::String(t.clone()))
            .collect();
        if kept.is_empty() {
            return Err(CodegenError::at(not_ptr, "`not` leaves no value admitted"));
        }
        if own.iter().any(|t| t == "number") && excluded.iter().any(|e| e == "integer") {
            return Err(CodegenError::at(
                not_ptr,
                "`not: {\"type\": \"integer\"}` beside `number` is not supported",
            ));
        }
        rest.insert("type".into(), Value::Array(kept));
        Ok(rest)
    }

    /// Merges the members of `allOf` (references resolved) and the sibling keys into one schema.
    fn merge_all_of(
        &self,
        obj: &Map<String, Value>,
        ptr: &str,
        depth: usize,
    ) -> Result<Map<String, Value>> {
        let mut result: Map<String, Value> = obj
            .iter()
            .filter(|(k, _)| *k != "allOf")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let list = obj["allOf"]
            .as_array()
            .ok_or_else(|| CodegenError::at(format!("{ptr}/allOf"), "must be an array"))?;
        for (i, member) in list.iter().enumerate() {
            let member_ptr = format!("{ptr}/allOf/{i}");
            let resolved = self.resolve_for_merge(member, &member_ptr, depth)?;
            merge_into(&mut result, &resolved, &member_ptr)?;
        }
        Ok(result)
    }

    fn resolve_for_merge(
        &self,
        schema: &Value,
        ptr: &str,
        depth: usize,
    ) -> Result<Map<String, Value>> {
        if depth > 32 {
            return Err(CodegenError::at(
                ptr,
                "`allOf` references nest too deep (a cycle?)",
            ));
        }
        let obj = schema
            .as_object()
            .ok_or_else(|| CodegenError::at(ptr, "an `allOf` member must be an object"))?;
        let mut out: Map<String, Value> = obj
            .iter()
            .filter(|(k, _)| *k != "$ref")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if let Some(reference) = obj.get("$ref").and_then(Value::as_str) {
            let target = self.doc.ref_target(reference, &format!("{ptr}/$ref"))?;
            let target_ptr = self.doc.definition_pointer(&target);
            let target_schema = self.doc.definition(&target).expect("resolved");
            let base = self.resolve_for_merge(target_schema, &target_ptr, depth + 1)?;
            let mut merged = base;
            merge_into(&mut merged, &out, ptr)?;
            out = merged;
        }
        if out.contains_key("allOf") {
            out = self.merge_all_of(&out, ptr, depth + 1)?;
        }
        Ok(out)
    }
}

/// Whether a schema (without its `not`) admits objects only, so that a struct carries a
/// `not: {"required": […]}`.
fn describes_object(rest: &Map<String, Value>) -> bool {
    match rest.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(_) => false,
        None => rest.contains_key("properties") && !rest.contains_key("$ref"),
    }
}

/// Whether two JSON values are equal as JSON Schema compares them (`1` equals `1.0`).
fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

/// `not: {"const"}` / `not: {"enum"}`: removes `excluded` from the schema's own `enum` or
/// `const` (a `boolean` without either becomes the constant left). `false` when the schema
/// has no finite set of values to remove them from (the `not` is then undecided).
fn not_values(rest: &mut Map<String, Value>, excluded: &[Value], not_ptr: &str) -> Result<bool> {
    let own: Vec<Value> = if let Some(Value::Array(values)) = rest.get("enum") {
        values.clone()
    } else if let Some(value) = rest.get("const") {
        vec![value.clone()]
    } else if rest.get("type") == Some(&Value::String("boolean".into())) {
        vec![Value::Bool(false), Value::Bool(true)]
    } else {
        return Ok(false);
    };
    let kept: Vec<Value> = own
        .into_iter()
        .filter(|v| !excluded.iter().any(|e| json_equal(v, e)))
        .collect();
    if kept.is_empty() {
        return Err(CodegenError::at(not_ptr, "`not` leaves no value admitted"));
    }
    rest.remove("const");
    rest.insert("enum".into(), Value::Array(kept));
    Ok(true)
}

/// Whether `reference` names a schema by an absolute URL (`https://…`), not in this document.
fn is_remote(reference: &str) -> bool {
    reference.contains("://")
}

/// The structural keywords present in `obj`, sorted.
fn structural_keys(obj: &Map<String, Value>) -> Vec<&'static str> {
    STRUCTURAL
        .iter()
        .copied()
        .filter(|k| obj.contains_key(*k))
        .collect()
}

/// The subset of a multi-typed schema relevant to one type of its `type` array.
fn token_only(obj: &Map<String, Value>, t: &str) -> Map<String, Value> {
    let keep: &[&str] = match t {
        "array" => &["items", "prefixItems", "additionalItems", "minItems"],
        "object" => &[
            "properties",
            "required",
            "additionalProperties",
            "patternProperties",
            NOT_ALL_PRESENT,
        ],
        _ => &[],
    };
    obj.iter()
        .filter(|(k, _)| keep.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Merges `other` into `into` for `allOf`.
fn merge_into(into: &mut Map<String, Value>, other: &Map<String, Value>, ptr: &str) -> Result<()> {
    for (key, value) in other {
        match key.as_str() {
            "properties" => {
                let target = into
                    .entry("properties")
                    .or_insert_with(|| Value::Object(Map::new()));
                let (Value::Object(target), Value::Object(props)) = (target, value) else {
                    return Err(CodegenError::at(
                        format!("{ptr}/properties"),
                        "must be an object",
                    ));
                };
                for (name, schema) in props {
                    match (target.get_mut(name), schema) {
                        (Some(Value::Object(existing)), Value::Object(new)) => {
                            for (k, v) in new {
                                if k == "required" {
                                    merge_required(existing, v);
                                } else {
                                    existing.insert(k.clone(), v.clone());
                                }
                            }
                        }
                        _ => {
                            target.insert(name.clone(), schema.clone());
                        }
                    }
                }
            }
            "required" => merge_required(into, value),
            "type" => match into.get("type") {
                Some(existing) if existing != value => {
                    return Err(CodegenError::at(
                        format!("{ptr}/type"),
                        "`allOf` members disagree on `type`",
                    ));
                }
                _ => {
                    into.insert(key.clone(), value.clone());
                }
            },
            k if shapes_nothing(k) || k == "additionalProperties" => {
                into.entry(key.clone()).or_insert_with(|| value.clone());
            }
            k => {
                if into.contains_key(k) && into[k] != *value {
                    return Err(CodegenError::at(
                        format!("{ptr}/{}", escape(k)),
                        format!("cannot merge `{k}` in `allOf`"),
                    ));
                }
                into.insert(key.clone(), value.clone());
            }
        }
    }
    Ok(())
}

fn merge_required(into: &mut Map<String, Value>, value: &Value) {
    let list = into
        .entry("required")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let (Value::Array(list), Value::Array(new)) = (list, value) {
        for v in new {
            if !list.contains(v) {
                list.push(v.clone());
            }
        }
    }
}

/// Marks struct fields and union variants that make a type recursive as boxed.
fn mark_boxes(module: &mut Module) {
    let edges: BTreeMap<String, Vec<String>> = module
        .types
        .iter()
        .map(|t| (t.name.clone(), direct_refs(&t.kind)))
        .collect();
    let reaches = |from: &str, to: &str| -> bool {
        let mut stack = vec![from.to_owned()];
        let mut seen = BTreeSet::new();
        while let Some(n) = stack.pop() {
            if n == to {
                return true;
            }
            if seen.insert(n.clone()) {
                stack.extend(edges.get(&n).cloned().unwrap_or_default());
            }
        }
        false
    };
    for def in &mut module.types {
        let owner = def.name.clone();
        match &mut def.kind {
            Kind::Struct(s) => {
                for f in &mut s.fields {
                    if let Ty::Named(n) = &f.ty {
                        f.boxed = reaches(n, &owner);
                    }
                }
            }
            Kind::Union(u) => {
                for v in &mut u.variants {
                    if let Ty::Named(n) = &v.ty {
                        v.boxed = reaches(n, &owner);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Names a type refers to without a `Vec`/map in between.
fn direct_refs(kind: &Kind) -> Vec<String> {
    let named = |ty: &Ty| match ty {
        Ty::Named(n) => Some(n.clone()),
        _ => None,
    };
    match kind {
        Kind::Struct(s) => s.fields.iter().filter_map(|f| named(&f.ty)).collect(),
        Kind::Union(u) => u.variants.iter().filter_map(|v| named(&v.ty)).collect(),
        Kind::Alias(ty) => named(ty).into_iter().collect(),
        Kind::Enum(_) | Kind::Const(_) => Vec::new(),
    }
}
