//! The `properties` of a tool's input and output schemas (`JsonObjectMap`, one text per map):
//! a `tools/list` result decodes in every version that declares them, encodes back byte for
//! byte, refuses a property that is not an object with the pointer of the map and the name of
//! the property, and builds from a `BTreeMap` as the setters took it before.

use std::collections::BTreeMap;

use mcpwire_types::support::{from_text, roundtrip_text};
use mcpwire_types::{JsonObject, JsonObjectMap};

/// A `tools/list` result whose schemas are spelled as no encoder would write them.
const RESULT: &str = r#"{"nextCursor":"2","tools":[{"inputSchema":{"properties":{ "query" : {"type":"string","maxLength":1e3} ,"n\"b":{ },"deep":{"items":{"a":[{"b":{}}]}}},"required":["query"],"type":"object"},"name":"find","outputSchema":{"properties":{"hits":{"type":"integer","minimum":-0}},"type":"object"}}]}"#;

macro_rules! for_each_version_with_properties {
    ($check:ident) => {
        $check::<mcpwire_types::mcp::v2025_06_18::ListToolsResult>("2025-06-18");
        $check::<mcpwire_types::mcp::v2025_11_25::ListToolsResult>("2025-11-25");
    };
}

#[test]
fn a_tools_list_result_encodes_back_byte_for_byte() {
    fn check<T: serde::de::DeserializeOwned + serde::Serialize>(version: &str) {
        assert_eq!(
            roundtrip_text::<T>(RESULT).as_deref(),
            Ok(RESULT),
            "{version}"
        );
    }
    for_each_version_with_properties!(check);
    // Older versions have no output schema: the input schema's properties alone.
    let older = r#"{"tools":[{"inputSchema":{"properties":{ "q" : {"x":1e3}},"type":"object"},"name":"find"}]}"#;
    assert_eq!(
        roundtrip_text::<mcpwire_types::mcp::v2024_11_05::ListToolsResult>(older).as_deref(),
        Ok(older)
    );
    assert_eq!(
        roundtrip_text::<mcpwire_types::mcp::v2025_03_26::ListToolsResult>(older).as_deref(),
        Ok(older)
    );
}

#[test]
fn a_property_that_is_not_an_object_is_refused_where_it_is() {
    fn check<T: serde::de::DeserializeOwned + serde::Serialize>(version: &str) {
        let text = RESULT.replace(r#""n\"b":{ }"#, r#""n\"b":[]"#);
        let err = from_text::<T>(&text)
            .err()
            .expect("a property that is an array");
        assert_eq!(
            err,
            "at `/tools/0/inputSchema/properties`: member `n\\\"b`: invalid type: sequence, expected a JSON object",
            "{version}"
        );
        let text = RESULT.replace(r#"{"type":"integer","minimum":-0}"#, "7");
        let err = from_text::<T>(&text)
            .err()
            .expect("a property that is a number");
        assert_eq!(
            err,
            "at `/tools/0/outputSchema/properties`: member `hits`: invalid type: number, expected a JSON object",
            "{version}"
        );
    }
    for_each_version_with_properties!(check);
}

#[test]
fn the_properties_read_as_members_and_build_from_a_map() {
    use mcpwire_types::mcp::v2025_11_25::{ListToolsResult, ToolInputSchema};
    let result: ListToolsResult = serde_json::from_str(RESULT).unwrap();
    let properties = result.tools[0].input_schema.properties.as_ref().unwrap();
    let members = properties.to_map().unwrap();
    assert_eq!(
        members.keys().map(String::as_str).collect::<Vec<_>>(),
        ["deep", "n\"b", "query"]
    );
    assert_eq!(
        properties.get("query").unwrap().text(),
        r#"{"type":"string","maxLength":1e3}"#
    );

    let map = BTreeMap::from([(
        "query".to_owned(),
        JsonObject::from_text(r#"{"type":"string"}"#).unwrap(),
    )]);
    let schema = ToolInputSchema::new().with_properties(map);
    assert_eq!(
        serde_json::to_string(&schema).unwrap(),
        r#"{"properties":{"query":{"type":"string"}},"type":"object"}"#
    );
    let decoded: ToolInputSchema =
        serde_json::from_str(&serde_json::to_string(&schema).unwrap()).unwrap();
    assert_eq!(decoded, schema);
    assert_eq!(
        decoded.properties,
        Some(JsonObjectMap::from_text(r#"{"query":{"type":"string"}}"#).unwrap())
    );
}
