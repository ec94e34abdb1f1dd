//! Hostile argument text: empty, blank, not an object, truncated, trailing garbage, nested past
//! the parser's depth, lone surrogates, and numbers JSON has no value for. Each call is refused
//! as invalid input (or, where the JSON is valid, handled exactly), never panics, and tells the
//! model a bounded, escaped message.

use agentkit_core::{IssueKind, ParamType, ToolCall, ValueKind};
use serde_json::{Value, json};

use crate::hostile_support::lookup_harness;

/// Dispatches `args` to `lookup` and returns the kinds of the issues it was refused with.
fn refused(args: impl Into<agentkit_core::ToolArguments>) -> Vec<IssueKind> {
    let (harness, probe) = lookup_harness();
    let outcome = harness.call(&ToolCall::new("call_1", "lookup", args));
    let (issues, omitted) = outcome.input_issues();
    assert_eq!(omitted, 0);
    assert_eq!(probe.runs(), 0, "a refused call does not run the tool");
    issues.iter().map(|issue| issue.kind()).collect()
}

#[test]
fn empty_and_blank_text_are_an_empty_object() {
    // Some providers send "" for a call without arguments: `{}`, which lacks `city`.
    for text in ["", "   ", " \n\t\r\n "] {
        assert_eq!(refused(text), [IssueKind::MissingParameter], "{text:?}");
    }
}

#[test]
fn json_that_is_not_an_object_is_refused_naming_what_it_is() {
    let cases = [
        ("null", ValueKind::Null),
        ("[1, 2]", ValueKind::List),
        (r#""{\"city\": \"Paris\"}""#, ValueKind::String),
        ("42", ValueKind::Integer),
        ("true", ValueKind::Boolean),
    ];
    for (text, got) in cases {
        let (harness, _) = lookup_harness();
        let outcome = harness.call(&ToolCall::new("c", "lookup", text));
        let (issues, _) = outcome.input_issues();
        assert_eq!(issues.len(), 1, "{text}");
        assert_eq!(issues[0].kind(), IssueKind::NotAnObject, "{text}");
        assert_eq!(issues[0].got(), Some(got), "{text}");
        assert_eq!(issues[0].expected(), Some(ParamType::Dictionary));
        assert!(
            outcome
                .model_text()
                .contains(&format!("got '{}'", got.as_str())),
            "{}",
            outcome.model_text()
        );
    }
}

#[test]
fn already_parsed_values_that_are_not_objects_are_refused_the_same_way() {
    for value in [
        Value::Null,
        json!([{"city": "Paris"}]),
        json!("city"),
        json!(1.5),
    ] {
        assert_eq!(refused(value.clone()), [IssueKind::NotAnObject], "{value}");
    }
}

#[test]
fn malformed_text_is_invalid_json() {
    let cases = [
        r#"{"city": "Par"#,               // truncated inside a string
        r#"{"city": "Paris","#,           // truncated after a comma
        r#"{"city": "Paris"} trailing"#,  // trailing garbage
        r#"{"city": "Paris"}{}"#,         // two objects
        r#"{'city': 'Paris'}"#,           // single quotes
        r#"{city: "Paris"}"#,             // unquoted key
        r#"{"city": "Paris",}"#,          // trailing comma
        "{\"city\": \"a\u{0}b\"}",        // a raw NUL inside a string
        "{\"city\": \"a\nb\"}",           // a raw newline inside a string
        "\u{FEFF}{\"city\": \"Paris\"}",  // a byte-order mark
        "{\"city\": \"Paris\" /* hi */}", // a comment
    ];
    for text in cases {
        assert_eq!(refused(text), [IssueKind::InvalidJson], "{text:?}");
    }
}

#[test]
fn nesting_past_the_parsers_depth_is_invalid_json_not_a_stack_overflow() {
    let deep_list = "[".repeat(100_000);
    assert_eq!(refused(deep_list.as_str()), [IssueKind::InvalidJson]);

    let deep_object = format!(
        "{{\"city\": \"Paris\", \"opts\": {}1{}}}",
        "{\"a\":".repeat(50_000),
        "}".repeat(50_000)
    );
    assert_eq!(refused(deep_object.as_str()), [IssueKind::InvalidJson]);

    // Closed, but deeper than the parser allows.
    let closed = format!(
        "{{\"city\": \"Paris\", \"opts\": {{\"a\": {}{}}}}}",
        "[".repeat(200),
        "]".repeat(200)
    );
    assert_eq!(refused(closed.as_str()), [IssueKind::InvalidJson]);
}

#[test]
fn nesting_within_the_parsers_depth_is_accepted_whole() {
    let (harness, _) = lookup_harness();
    let text = format!(
        "{{\"city\": \"Paris\", \"opts\": {{\"a\": {}1{}}}}}",
        "[".repeat(100),
        "]".repeat(100)
    );
    let outcome = harness.call(&ToolCall::new("c", "lookup", text.as_str()));
    let output = outcome.output();
    let mut depth = 0;
    let mut value = &output["opts"]["a"];
    while let Value::Array(items) = value {
        depth += 1;
        value = &items[0];
    }
    assert_eq!((depth, value), (100, &json!(1)));
}

#[test]
fn lone_surrogates_are_invalid_json_in_values_and_keys() {
    let cases = [
        r#"{"city": "\ud800"}"#,
        r#"{"city": "a\udfffb"}"#,
        r#"{"city": "\ud800\u0041"}"#,
        r#"{"\ud83d": "Paris"}"#,
        r#"{"city": "Paris", "tags": ["\udc00"]}"#,
    ];
    for text in cases {
        assert_eq!(refused(text), [IssueKind::InvalidJson], "{text}");
    }
    // A surrogate pair is one character, and fine.
    let (harness, _) = lookup_harness();
    let outcome = harness.call(&ToolCall::new("c", "lookup", r#"{"city": "\ud83d\ude00"}"#));
    assert_eq!(outcome.output()["city"], "😀");
}

#[test]
fn numbers_json_has_no_value_for_are_invalid_json() {
    for text in [
        r#"{"city": "Paris", "x": NaN}"#,
        r#"{"city": "Paris", "x": Infinity}"#,
        r#"{"city": "Paris", "x": -Infinity}"#,
        r#"{"city": "Paris", "x": 1e400}"#,
        r#"{"city": "Paris", "x": -1e400}"#,
        r#"{"city": "Paris", "n": 0x10}"#,
        r#"{"city": "Paris", "n": +1}"#,
        r#"{"city": "Paris", "n": 01}"#,
    ] {
        assert_eq!(refused(text), [IssueKind::InvalidJson], "{text}");
    }
}

#[test]
fn integers_outside_i64_are_out_of_range_whatever_their_spelling() {
    for text in [
        r#"{"city": "Paris", "n": 18446744073709551615}"#, // u64::MAX
        r#"{"city": "Paris", "n": 18446744073709551616}"#, // u64::MAX + 1, parsed as a float
        r#"{"city": "Paris", "n": 9223372036854775808}"#,  // i64::MAX + 1
        r#"{"city": "Paris", "n": -9223372036854775809}"#, // i64::MIN - 1
        r#"{"city": "Paris", "n": 1e19}"#,
    ] {
        let (harness, _) = lookup_harness();
        let outcome = harness.call(&ToolCall::new("c", "lookup", text));
        let (issues, _) = outcome.input_issues();
        assert_eq!(issues.len(), 1, "{text}");
        assert_eq!(issues[0].kind(), IssueKind::OutOfRange, "{text}");
        assert_eq!(issues[0].param(), Some("n"));
        assert_eq!(
            outcome.model_text(),
            "Error: invalid arguments for tool 'lookup':\n\
             - Parameter 'n': expected type 'integer', got an integer outside the 64-bit range"
        );
    }
}

#[test]
fn the_lowest_integer_is_taken_however_it_is_spelt_and_nothing_below_it() {
    // i64::MIN as an integer, and as the double -2^63 (exactly it) in any float spelling:
    // the exported schema takes these too, comparing numbers by value.
    for spelling in [
        "-9223372036854775808",
        "-9223372036854775808.0",
        "-9.223372036854775808e18",
        "-9.223372036854776e18",
    ] {
        let (harness, _) = lookup_harness();
        let text = format!(r#"{{"city": "Paris", "n": {spelling}}}"#);
        let outcome = harness.call(&ToolCall::new("c", "lookup", text.as_str()));
        assert_eq!(outcome.output()["n"].as_i64(), Some(i64::MIN), "{spelling}");
    }
    // Integers below it that round to the same double stay below it, in nested values too;
    // for a float parameter they are numbers.
    let (harness, _) = lookup_harness();
    let text = r#"{"city": "Paris", "n": -9223372036854776832, "x": -9223372036854775809}"#;
    let outcome = harness.call(&ToolCall::new("c", "lookup", text));
    let (issues, _) = outcome.input_issues();
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].kind(), IssueKind::OutOfRange);
    assert_eq!(issues[0].param(), Some("n"));
    let (harness, _) = lookup_harness();
    let text = r#"{"city": "Paris", "x": -9223372036854775809}"#;
    let outcome = harness.call(&ToolCall::new("c", "lookup", text));
    let output = outcome.output();
    assert!(
        output["x"].as_f64().is_some_and(|x| x < -9.2e18),
        "{output:?}"
    );
}

#[test]
fn negative_zero_and_extreme_floats_are_values() {
    let (harness, _) = lookup_harness();
    let text = r#"{"city": "Paris", "n": -0, "x": -0.0}"#;
    let outcome = harness.call(&ToolCall::new("c", "lookup", text));
    let output = outcome.output();
    assert_eq!(output["n"].as_i64(), Some(0));
    assert_eq!(
        output["x"].as_f64().map(f64::to_bits),
        Some((-0.0f64).to_bits())
    );

    let text = r#"{"city": "Paris", "n": -9223372036854775808, "x": 1.7976931348623157e308}"#;
    let outcome = harness.call(&ToolCall::new("c", "lookup", text));
    let output = outcome.output();
    assert_eq!(output["n"].as_i64(), Some(i64::MIN));
    assert_eq!(output["x"].as_f64(), Some(f64::MAX));
    // Non-finite floats built in code never reach a tool: serde_json makes them `null`, and
    // `null` is "absent" for an optional parameter.
    let args = json!({"city": "Paris", "x": f64::NAN, "n": f64::INFINITY});
    let outcome = harness.call(&ToolCall::new("c", "lookup", args));
    let output = outcome.output();
    assert!(
        output.get("x").is_none() && output.get("n").is_none(),
        "{output:?}"
    );
}

#[test]
fn the_parsers_message_is_bounded_and_escaped() {
    // The parser names a position, never the text; the message stays one line either way.
    let text = format!("{{\"city\": \"{}\u{202E}\n", "x".repeat(100_000));
    let (harness, _) = lookup_harness();
    let outcome = harness.call(&ToolCall::new("c", "lookup", text.as_str()));
    let (issues, _) = outcome.input_issues();
    assert_eq!(issues[0].kind(), IssueKind::InvalidJson);
    let content = outcome.model_text();
    assert!(content.len() < 1024, "{content}");
    assert!(content.starts_with(
        "Error: invalid arguments for tool 'lookup':\n- Arguments are not valid JSON: "
    ));
}
