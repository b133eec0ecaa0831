//! The snapshot outputs compiled under `#![deny(warnings)]`, and what they do on the wire.
#![deny(warnings)]

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "snapshots/additional_properties/expected.rs"]
mod additional_properties;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "snapshots/allof_merge/expected.rs"]
mod allof_merge;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "snapshots/anyof_const/expected.rs"]
mod anyof_const;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "snapshots/anyof_required/expected.rs"]
mod anyof_required;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "snapshots/batch_arrays/expected.rs"]
mod batch_arrays;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "snapshots/const_discriminator/expected.rs"]
mod const_discriminator;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "snapshots/method_union/expected.rs"]
mod method_union;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "snapshots/nested_arrays_maps/expected.rs"]
mod nested_arrays_maps;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "snapshots/odd_names/expected.rs"]
mod odd_names;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "snapshots/recursive/expected.rs"]
mod recursive;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "snapshots/value_strategies/expected.rs"]
mod value_strategies;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "snapshots/string_enum/expected.rs"]
mod string_enum;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "snapshots/struct_optional/expected.rs"]
mod struct_optional;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "snapshots/type_array/expected.rs"]
mod type_array;

use serde_json::{Value, json};

fn round<T: serde::de::DeserializeOwned + serde::Serialize>(value: Value) -> Result<Value, String> {
    let typed: T = serde_json::from_value(value).map_err(|e| e.to_string())?;
    Ok(serde_json::to_value(typed).unwrap())
}

#[test]
fn structs_keep_names_optionals_nulls_and_number_kinds() {
    use struct_optional::Item;
    let full = json!({"name": "n", "count": 3, "ratio": 0.5, "enabled": true, "type": "t",
        "_meta": {"k": 1}, "data": null, "ttl": null, "expires": null});
    assert_eq!(
        round::<Item>(full.clone()).unwrap(),
        full,
        "present nulls survive"
    );
    let minimal = json!({"name": "n", "count": 3, "ttl": 5});
    assert_eq!(
        round::<Item>(minimal.clone()).unwrap(),
        minimal,
        "absent optionals stay absent"
    );
    assert!(
        round::<Item>(json!({"name": "n", "count": 1.5, "ttl": 1})).is_err(),
        "integer rejects 1.5"
    );
    assert_eq!(
        round::<Item>(json!({"name": "n", "count": 1, "ttl": 1, "ratio": 2})).unwrap()["ratio"],
        json!(2)
    );
}

#[test]
fn integers_admit_every_whole_spelling_in_every_position() {
    use struct_optional::Item;
    // JSON Schema's `integer` is any whole number: `3.0` and `3e0` are integers.
    let sent = json!({"name": "n", "count": 3.0, "ttl": 5e0, "limit": 2.0, "size": 40.0});
    let item: Item = serde_json::from_value(sent.clone()).unwrap();
    let value = |n: Option<&mcpwire_types::support::Integer>| n.and_then(|n| n.as_i64());
    assert_eq!(
        (
            value(Some(&item.count)),
            value(item.ttl.as_ref()),
            value(item.limit.as_ref().and_then(Option::as_ref)),
            value(item.size.as_ref())
        ),
        (Some(3), Some(5), Some(2), Some(40))
    );
    assert_eq!(
        serde_json::to_value(&item).unwrap(),
        sent,
        "encoded as decoded"
    );
    for (member, value) in [
        ("count", json!(3.5)),
        ("ttl", json!(0.5)),
        ("limit", json!(1e-3)),
        ("size", json!(4.25)),
    ] {
        let mut doc = json!({"name": "n", "count": 1, "ttl": 1});
        doc[member] = value;
        let err = round::<Item>(doc).unwrap_err();
        assert!(err.contains("expected an integer"), "{member}: {err}");
    }
    assert_eq!(
        struct_optional::roundtrip("Size", json!(7.0)),
        Some(Ok(json!(7.0))),
        "an alias of integer, decoded by name"
    );

    // Items of arrays and maps, flattened extra members, and union variants.
    let grid = json!({"rows": [], "byName": {"a": [1.0, 2e0]}});
    assert_eq!(
        round::<nested_arrays_maps::Grid>(grid).unwrap()["byName"],
        json!({"a": [1.0, 2.0]})
    );
    let sample = round::<value_strategies::Item>(json!({"count": 1.0, "score": 1.0,
        "tags": [], "extra": 9.0}))
    .unwrap();
    assert_eq!(
        (&sample["count"], &sample["extra"]),
        (&json!(1.0), &json!(9.0))
    );
    assert_eq!(sample["score"], json!(1.0), "a `number` keeps its spelling");
    assert_eq!(
        serde_json::from_value::<type_array::Token>(json!(5.0)).unwrap(),
        type_array::Token::Integer(mcpwire_types::support::Integer::from_json_text("5.0").unwrap())
    );

    // Error codes and integer constants.
    assert_eq!(
        serde_json::from_value::<struct_optional::ErrorCode>(json!(-32600.0)).unwrap(),
        struct_optional::ErrorCode::InvalidRequest
    );
    let ping = json!({"jsonrpc": "2.0", "method": "ping", "code": -32042.0});
    assert!(round::<const_discriminator::PingRequest>(ping).is_ok());
}

#[test]
fn const_members_reject_other_values() {
    use const_discriminator::PingRequest;
    let ok = json!({"jsonrpc": "2.0", "method": "ping", "code": -32042});
    assert_eq!(round::<PingRequest>(ok.clone()).unwrap(), ok);
    let err = round::<PingRequest>(json!({"jsonrpc": "2.0", "method": "tools/list"})).unwrap_err();
    assert!(err.contains("\"ping\""), "{err}");
    assert!(round::<PingRequest>(json!({"jsonrpc": "1.0", "method": "ping"})).is_err());
    assert!(round::<PingRequest>(json!({"jsonrpc": "2.0", "method": "ping", "code": 1})).is_err());
}

#[test]
fn closed_enums_reject_and_open_enums_keep_unknown_strings() {
    use string_enum::{Role, Theme};
    assert!(round::<Role>(json!("admin")).is_err());
    assert_eq!(round::<Role>(json!("user")).unwrap(), json!("user"));
    let theme: Theme = serde_json::from_value(json!("sepia")).unwrap();
    assert_eq!(theme, Theme::Unknown("sepia".into()));
    assert_eq!(serde_json::to_value(&theme).unwrap(), json!("sepia"));
    assert_eq!(
        serde_json::from_value::<Theme>(json!("high-contrast")).unwrap(),
        Theme::HighContrast
    );
}

#[test]
fn unions_pick_by_const_and_errors_name_variant_and_member() {
    use anyof_const::Content;
    let image: Content = serde_json::from_value(json!({"type": "image", "data": "AA"})).unwrap();
    assert!(matches!(image, Content::ImageContent(_)));
    let err = serde_json::from_value::<Content>(json!({"type": "image", "text": "no data"}))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("`ImageContent`") && err.contains("`data`"),
        "{err}"
    );
    let err = serde_json::from_value::<Content>(json!({"type": "video"}))
        .unwrap_err()
        .to_string();
    assert!(err.contains("`type`") && err.contains("video"), "{err}");
}

#[test]
fn one_of_admits_exactly_one_matching_variant() {
    use anyof_required::OneResult;
    // The open `Result` admits every object, so `oneOf` holds only where nothing else does.
    let one: OneResult = serde_json::from_value(json!({"other": 1})).unwrap();
    assert!(matches!(one, OneResult::Result(_)));
    let err = serde_json::from_value::<OneResult>(json!({"items": ["a"]}))
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "OneResult: the value matches 2 variants (`ListResult`, `Result`), but `oneOf` admits exactly one"
    );
    // `items` of the wrong type: only `Result` matches, so it is taken.
    let one: OneResult = serde_json::from_value(json!({"items": 5})).unwrap();
    assert!(matches!(one, OneResult::Result(_)));
}

#[test]
fn any_of_falls_back_to_the_next_admitting_variant_in_schema_order() {
    use anyof_required::AnyResult;
    // `items` points at `ListResult`, which fails; `Result` (first in schema order) admits it.
    let value = json!({"items": 5, "x": true});
    let decoded: AnyResult = serde_json::from_value(value.clone()).unwrap();
    assert!(matches!(decoded, AnyResult::Result(_)));
    assert_eq!(serde_json::to_value(&decoded).unwrap(), value);
}

#[test]
fn unions_pick_by_unique_required_member_with_a_fallback() {
    use anyof_required::AnyResult;
    let list: AnyResult = serde_json::from_value(json!({"items": ["a"]})).unwrap();
    assert!(matches!(list, AnyResult::ListResult(_)));
    let count: AnyResult = serde_json::from_value(json!({"total": 2})).unwrap();
    assert!(matches!(count, AnyResult::CountResult(_)));
    let empty: AnyResult = serde_json::from_value(json!({"other": 1})).unwrap();
    assert!(matches!(empty, AnyResult::Result(_)));
    assert_eq!(
        serde_json::to_value(&empty).unwrap(),
        json!({"other": 1}),
        "the open fallback keeps extras"
    );
}

#[test]
fn type_arrays_pick_by_json_token() {
    use type_array::{Scalar, Token};
    assert_eq!(
        serde_json::from_value::<Token>(json!(5)).unwrap(),
        Token::Integer(5.into())
    );
    assert_eq!(
        serde_json::from_value::<Token>(json!("5")).unwrap(),
        Token::String("5".into())
    );
    assert!(serde_json::from_value::<Token>(json!(5.5)).is_err());
    assert!(
        serde_json::from_value::<Token>(json!(true))
            .unwrap_err()
            .to_string()
            .contains("found a boolean")
    );
    assert_eq!(
        serde_json::from_value::<Scalar>(json!(null)).unwrap(),
        Scalar::Null
    );
    assert_eq!(round::<Scalar>(json!(5.5)).unwrap(), json!(5.5));
}

#[test]
fn all_of_merges_members_and_constants() {
    use allof_merge::ElicitationRequired;
    let ok = json!({"code": -32042, "message": "m", "data": {"url": "https://x"}});
    assert_eq!(round::<ElicitationRequired>(ok.clone()).unwrap(), ok);
    assert!(
        round::<ElicitationRequired>(json!({"code": -32000, "message": "m", "data": {"url": "u"}}))
            .is_err()
    );
    assert!(round::<ElicitationRequired>(json!({"code": -32042, "message": "m"})).is_err());
}

#[test]
fn undeclared_members_are_kept_unless_the_schema_forbids_them() {
    use additional_properties::{Closed, Ignored, Labels, Open};
    let open = json!({"id": "a", "x": [1]});
    assert_eq!(round::<Open>(open.clone()).unwrap(), open);
    // `additionalProperties` absent: the member is admitted, so it is kept too.
    let implicit = json!({"id": "a", "x-extra": {"deep": [1, null]}, "z": 1.5});
    assert_eq!(round::<Ignored>(implicit.clone()).unwrap(), implicit);
    let decoded: Ignored = serde_json::from_value(implicit).unwrap();
    assert_eq!(decoded.extra["z"], json!(1.5));
    // Nothing undeclared: the map stays empty and nothing extra is written.
    assert_eq!(
        serde_json::to_string(&serde_json::from_str::<Ignored>(r#"{"id":"a"}"#).unwrap()).unwrap(),
        r#"{"id":"a"}"#
    );
    // `additionalProperties: false` is enforced.
    assert_eq!(
        round::<Closed>(json!({"id": "a"})).unwrap(),
        json!({"id": "a"})
    );
    let err = round::<Closed>(json!({"id": "a", "x": 1})).unwrap_err();
    assert!(err.contains("unknown field `x`"), "{err}");
    // A declared member twice is an error, as before.
    let err = serde_json::from_str::<Ignored>(r#"{"id":"a","id":"b"}"#).unwrap_err();
    assert!(err.to_string().contains("duplicate field `id`"), "{err}");
    // An array is not an object.
    assert!(round::<Ignored>(json!(["a"])).is_err());
    assert!(round::<Labels>(json!({"a": 1})).is_err());
}

#[test]
fn nested_arrays_maps_and_refs_round_trip() {
    use nested_arrays_maps::Grid;
    let grid = json!({"rows": [[{"x": 1, "y": 2.5}]], "byName": {"a": [1, 2]}, "origin": {"x": 0, "y": 0}, "tags": [{"key": "k"}]});
    assert_eq!(round::<Grid>(grid.clone()).unwrap(), grid);
}

#[test]
fn method_unions_route_by_method_and_keep_unknown_ones() {
    use method_union::ClientRequest;
    let list: ClientRequest =
        serde_json::from_value(json!({"method": "tools/list", "params": {"cursor": "c"}})).unwrap();
    assert!(
        matches!(list, ClientRequest::ListToolsRequest(_)),
        "tools/list must not parse as ping: {list:?}"
    );
    let other = json!({"method": "x/y", "params": [1, 2]});
    let unknown: ClientRequest = serde_json::from_value(other.clone()).unwrap();
    assert!(
        matches!(&unknown, ClientRequest::Unknown(u) if u.method == "x/y" && u.params.as_ref().is_some_and(|p| *p == json!([1, 2])))
    );
    assert_eq!(serde_json::to_value(&unknown).unwrap(), other);
}

#[test]
fn recursive_types_round_trip() {
    use recursive::{JSONValue, Node};
    let value = json!({"a": [1, "b", {"c": [true]}]});
    assert_eq!(round::<JSONValue>(value.clone()).unwrap(), value);
    let node = json!({"label": "a", "next": {"label": "b", "next": {"label": "c"}}});
    assert_eq!(round::<Node>(node.clone()).unwrap(), node);
}

#[test]
fn arrays_of_different_items_pick_by_the_first_item() {
    use batch_arrays::Message;
    let calls: Message = serde_json::from_value(json!([{"method": "a"}])).unwrap();
    assert!(matches!(calls, Message::Array(_)), "{calls:?}");
    let replies: Message = serde_json::from_value(json!([{"result": 1, "id": 1}])).unwrap();
    assert!(matches!(replies, Message::Array2(_)), "{replies:?}");
    let reply: Message = serde_json::from_value(json!({"result": null, "id": 1})).unwrap();
    assert!(matches!(reply, Message::Reply(_)), "{reply:?}");
}

#[test]
fn nulls_are_rejected_where_the_schema_does_not_admit_them() {
    use struct_optional::Item;
    let err =
        round::<Item>(json!({"name": "n", "count": 1, "ttl": 1, "enabled": null})).unwrap_err();
    assert!(err.contains("null"), "{err}");
    let err = round::<Item>(json!({"name": "n", "count": 1})).unwrap_err();
    assert!(
        err.contains("missing field `ttl`"),
        "a required nullable member must be present: {err}"
    );
}

/// Runs `strategy` for a few cases and returns the encoded values.
fn samples<T: serde::Serialize + std::fmt::Debug>(
    strategy: proptest::strategy::BoxedStrategy<T>,
) -> Vec<Value> {
    use proptest::strategy::{Strategy, ValueTree};
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    (0..64)
        .map(|_| {
            let value = strategy.new_tree(&mut runner).expect("a value").current();
            serde_json::to_value(&value).expect("encodes")
        })
        .collect()
}

#[test]
fn strategies_respect_constraints_and_unions() {
    let items = samples(value_strategies::strategies::item());
    for item in &items {
        let score = item["score"].as_f64().expect("score");
        assert!((0.0..=1.0).contains(&score), "{item}");
        let count = item["count"].as_i64().expect("count");
        assert!((1..=5).contains(&count), "{item}");
        let tags = item["tags"].as_array().expect("tags").len();
        assert!((1..=2).contains(&tags), "{item}");
        if let Some(code) = item.get("code") {
            let len = code.as_str().expect("code").chars().count();
            assert!((2..=3).contains(&len), "{item}");
        }
        if let Some(link) = item.get("link") {
            assert!(link.as_str().expect("link").contains(':'), "{item}");
        }
        for (key, value) in item.as_object().expect("object") {
            if key.starts_with("x-") {
                assert!(value.is_i64(), "{item}");
            }
        }
    }
    assert!(items.iter().any(|i| i.get("note") == Some(&Value::Null)));
    let shapes = samples(value_strategies::strategies::shape());
    for kind in ["circle", "square"] {
        assert!(shapes.iter().any(|s| s["kind"] == kind), "{kind}");
    }
    for batch in samples(value_strategies::strategies::batch()) {
        assert!(!batch.as_array().expect("array").is_empty());
    }
    for shape in &shapes {
        let back: value_strategies::Shape = serde_json::from_value(shape.clone()).expect("decodes");
        assert_eq!(&serde_json::to_value(back).unwrap(), shape);
    }
}

#[test]
fn recursive_strategies_end_within_their_depth() {
    fn depth(value: &Value) -> usize {
        match value {
            Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
            Value::Object(members) => 1 + members.values().map(depth).max().unwrap_or(0),
            _ => 0,
        }
    }
    let nodes = samples(recursive::strategies::node());
    assert!(nodes.iter().all(|n| depth(n) <= 5), "{nodes:?}");
    assert!(nodes.iter().any(|n| n.get("next").is_some()));
    let values = samples(recursive::strategies::jsonvalue());
    assert!(values.iter().all(|v| depth(v) <= 5), "{values:?}");
    assert!(values.iter().any(|v| depth(v) >= 2));
}

#[test]
fn names_that_are_no_rust_identifiers_are_sanitised_and_keep_their_json_names() {
    // `my-type` and `MyType` both exist: the sanitised one gets a suffix.
    let value = json!({"self": "a", "type": "t", "crate": 1, "2nd": true, "extra": "e",
        "mode": "a-b", "x-other": [1]});
    assert_eq!(
        odd_names::roundtrip("my-type", value.clone()),
        Some(Ok(value.clone()))
    );
    let decoded: odd_names::MyType2 = serde_json::from_value(value).unwrap();
    assert_eq!(
        (
            decoded.self_.as_str(),
            decoded.r#type.as_deref(),
            decoded.extra.as_deref()
        ),
        ("a", Some("t"), Some("e"))
    );
    assert_eq!(decoded.extra2["x-other"], json!([1]));
    assert_eq!(decoded.mode, Some(odd_names::MyType2Mode::AB));
    assert_eq!(
        serde_json::from_value::<odd_names::MyType2Mode>(json!("Self")).unwrap(),
        odd_names::MyType2Mode::SelfValue
    );
    assert_eq!(
        odd_names::roundtrip("2fa", json!("x")),
        Some(Ok(json!("x")))
    );
    assert_eq!(
        odd_names::roundtrip("ünïcode", json!(3)),
        Some(Ok(json!(3)))
    );
    assert!(matches!(
        serde_json::from_value::<odd_names::SelfValue>(json!("s")).unwrap(),
        odd_names::SelfValue::String(_)
    ));
    assert_eq!(
        odd_names::DEFINITIONS,
        ["2fa", "MyType", "Self", "my-type", "ünïcode"]
    );
}
