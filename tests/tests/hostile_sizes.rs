//! Hostile sizes: megabyte keys, names and call ids, a hundred thousand unknown keys, hundreds
//! of thousands of bad list items, a megabyte error message, model message, retry feedback
//! and output. Whatever the input's size, the model text stays within `TextLimits`, issues
//! past the cap are counted rather than kept, and every copy the executor keeps of an
//! untrusted string is bounded.
//!
//! Inputs are a few megabytes: enough to be far past every bound, small enough for CI. No
//! assertion is about time.

use agentkit_core::{
    BoxError, ErrorKind, IssueKind, JsonObject, RecordedOutcome, TextLimits, ToolCall, ToolError,
    ToolRegistry, UnknownToolError,
};
use serde_json::{Value, json};

use crate::core_fixtures::{FnTool, bare_spec, obj};
use crate::hostile_support::{Harness, lookup_harness, lookup_tool};

/// Four megabytes, far past every bound.
const HUGE: usize = 4 << 20;

/// The most bytes the executor keeps of an untrusted name: 256, and the `…` that says so.
const CAPTURED: usize = 256 + '…'.len_utf8();

fn huge(c: char) -> String {
    std::iter::repeat_n(c, HUGE).collect()
}

/// The text between the first `'` after `prefix` and the next `'`.
fn quoted_after<'a>(content: &'a str, prefix: &str) -> &'a str {
    let start = content.find(prefix).expect("prefix") + prefix.len();
    let rest = &content[start..];
    &rest[..rest.find('\'').expect("closing quote")]
}

#[test]
fn a_megabyte_undeclared_key_is_cut_in_every_copy() {
    let (harness, probe) = lookup_harness();
    let key = huge('k');
    let args = format!(r#"{{"city": "Paris", "{key}": 1}}"#);
    let outcome = harness.call(&ToolCall::new("c", "lookup", args));
    let (issues, omitted) = outcome.input_issues();
    assert_eq!((issues.len(), omitted), (1, 0));
    assert_eq!(issues[0].kind(), IssueKind::UnknownParameter);
    // The issue keeps a bounded copy, and searches no suggestion for it.
    let kept = issues[0].param().unwrap();
    assert!(kept.len() <= CAPTURED, "{} bytes kept", kept.len());
    assert!(kept.starts_with("kkkk") && kept.ends_with('…'));
    assert_eq!(issues[0].suggestion(), None);
    // The model sees at most 80 characters of it.
    let content = outcome.model_text();
    let echoed = quoted_after(&content, "Unknown parameter: '");
    assert_eq!(echoed, format!("{}…", "k".repeat(80)));
    assert!(content.len() < 300, "{content}");
    assert_eq!(probe.runs(), 0);
}

#[test]
fn a_megabyte_repeated_key_is_cut() {
    let (harness, _) = lookup_harness();
    let key = huge('q');
    let args = format!(r#"{{"city": "Paris", "opts": {{"{key}": 1, "{key}": 2}}}}"#);
    let outcome = harness.call(&ToolCall::new("c", "lookup", args));
    let (issues, _) = outcome.input_issues();
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].kind(), IssueKind::DuplicateKey);
    let kept = issues[0].param().unwrap();
    assert!(kept.len() <= CAPTURED, "{} bytes kept", kept.len());
    assert!(kept.starts_with("opts.qqq"), "{kept:.20}");
    let echoed = quoted_after(&outcome.model_text(), "Duplicate key: '").to_owned();
    assert_eq!(echoed.chars().count(), 81, "{echoed}");
}

#[test]
fn a_key_just_past_any_valid_name_gets_no_suggestion_search() {
    let (harness, _) = lookup_harness();
    // A near miss gets its suggestion ...
    let outcome = harness.call(&ToolCall::new(
        "c",
        "lookup",
        r#"{"city": "A", "tgas": []}"#,
    ));
    let (issues, _) = outcome.input_issues();
    assert_eq!(issues[0].suggestion(), Some("tags"));
    // ... a key longer than 128 bytes is no typo, whatever it resembles.
    let key = format!("tags{}", "s".repeat(125));
    let outcome = harness.call(&ToolCall::new(
        "c",
        "lookup",
        json!({"city": "A", key.clone(): []}),
    ));
    let (issues, _) = outcome.input_issues();
    assert_eq!(issues[0].param(), Some(key.as_str()));
    assert_eq!(issues[0].suggestion(), None);
}

#[test]
fn a_hundred_thousand_unknown_keys_are_counted_not_listed() {
    let (harness, _) = lookup_harness();
    let mut args = obj(json!({"city": "Paris"}));
    for i in 0..100_000 {
        args.insert(format!("extra_{i:06}"), Value::from(i));
    }
    let outcome = harness.call(&ToolCall::new("c", "lookup", args));
    let (issues, omitted) = outcome.input_issues();
    assert_eq!(issues.len(), 20);
    assert_eq!(omitted, 100_000 - 20);
    assert!(
        issues
            .iter()
            .all(|issue| issue.kind() == IssueKind::UnknownParameter)
    );
    let content = outcome.model_text();
    assert!(content.ends_with("\n- ... and 99980 more"), "{content}");
    assert!(content.len() < 2048, "{} bytes", content.len());
}

#[test]
fn hundreds_of_thousands_of_bad_list_items_are_counted_not_listed() {
    let (harness, _) = lookup_harness();
    let items = 200_000;
    // As text, as a model would write it: `"tags": [1,1,...]` where strings are expected.
    let args = format!(
        r#"{{"city": "Paris", "tags": [{}1]}}"#,
        "1,".repeat(items - 1)
    );
    let outcome = harness.call(&ToolCall::new("c", "lookup", args));
    let (issues, omitted) = outcome.input_issues();
    assert_eq!(issues.len() + omitted, items);
    assert_eq!(issues.len(), 20);
    assert_eq!(issues[19].param(), Some("tags[19]"));
    assert!(
        outcome
            .model_text()
            .ends_with(&format!("- ... and {} more", items - 20))
    );

    // Items that are objects with a bad field each, nested one level deeper.
    let stops: Vec<Value> = (0..100_000).map(|_| json!({"city": 5})).collect();
    let outcome = harness.call(&ToolCall::new(
        "c",
        "lookup",
        json!({"city": "Paris", "stops": stops}),
    ));
    let (issues, omitted) = outcome.input_issues();
    assert_eq!((issues.len(), omitted), (20, 100_000 - 20));
    assert_eq!(issues[3].param(), Some("stops[3].city"));
}

#[test]
fn a_megabyte_tool_name_is_unknown_and_cut() {
    let (harness, _) = lookup_harness();
    let name = huge('n');
    let outcome = harness.call(&ToolCall::new("c", name.as_str(), "{}"));
    let error = outcome.error(ErrorKind::UnknownTool);
    let agentkit_core::Error::UnknownTool(unknown) = error else {
        panic!("{error:?}")
    };
    let unknown: &UnknownToolError = unknown;
    assert!(unknown.name().len() <= CAPTURED);
    assert!(unknown.nearest().is_empty());
    assert!(outcome.result.tool_name().len() <= CAPTURED);
    assert!(outcome.recordings[0].tool_name.len() <= CAPTURED);
    assert_eq!(
        outcome.model_text(),
        format!("Error: unknown tool '{}…'", "n".repeat(80))
    );
    // The span names it, cut too.
    assert!(outcome.spans.iter().all(|line| line.len() < 2048));
}

#[test]
fn a_megabyte_call_id_is_kept_for_the_caller_and_cut_everywhere_else() {
    let (harness, _) = lookup_harness();
    let id = huge('i');
    let outcome = harness.call(&ToolCall::new(id.as_str(), "lookup", r#"{"city": "Oslo"}"#));
    assert_eq!(outcome.output()["city"], "Oslo");
    // The caller matches results to calls by id: the result keeps it whole.
    assert_eq!(outcome.result.call_id(), id);
    // The recorder and the span keep bounded copies.
    assert!(outcome.recordings[0].call_id.len() <= CAPTURED);
    let span = outcome
        .spans
        .iter()
        .find(|line| line.starts_with("span execute_tool:"))
        .expect("a span");
    assert!(span.len() < 2048, "{} bytes", span.len());
}

#[test]
fn a_megabyte_value_is_accepted_and_its_echo_is_cut_for_the_model() {
    let (harness, _) = lookup_harness();
    // A megabyte of two-byte characters: the cut falls on a character boundary.
    let city: String = std::iter::repeat_n('é', HUGE / 8).collect();
    let outcome = harness.call(&ToolCall::new("c", "lookup", json!({"city": city.clone()})));
    // The tool and the caller get the whole value ...
    assert_eq!(outcome.output()["city"], city);
    // ... the model gets 16 KiB of it, and is told how much was left out.
    let content = outcome.model_text();
    assert!(content.len() <= 16 * 1024);
    assert!(content.starts_with(r#"{"city":"éé"#));
    assert!(
        content.ends_with(" more bytes]"),
        "{}",
        &content[content.len() - 60..]
    );
}

/// What `failing` fails with.
type Failure = fn() -> BoxError;

/// A harness over `failing`, which fails with what `fail` makes.
fn failing(fail: Failure) -> Harness {
    let (tool, _) = FnTool::new(bare_spec("failing"), move |_, _| {
        Err::<JsonObject, BoxError>(fail())
    });
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    Harness::new(registry)
}

fn upstream_said() -> String {
    format!("upstream said: {}", "x".repeat(HUGE))
}

#[test]
fn a_megabyte_error_message_is_cut_to_its_limit() {
    // A plain error: the model is told only that the tool failed.
    let harness = failing(|| upstream_said().into());
    let call = ToolCall::new("c", "failing", "{}");
    let outcome = harness.call(&call);
    let error = outcome.error(ErrorKind::Execution);
    assert_eq!(outcome.model_text(), "Error: tool 'failing' failed.");
    // Operators get the message, bounded.
    let agentkit_core::Error::Execution(e) = error else {
        panic!("{error:?}")
    };
    assert!(e.message().starts_with("upstream said: xxx"));
    assert!(
        e.message().len() <= 8 * 1024 + 3,
        "{} bytes",
        e.message().len()
    );
    assert!(
        error.to_string().len() < 8 * 1024,
        "{}",
        error.to_string().len()
    );

    // The same text for the model, as a failure's model message or a retry's feedback: cut
    // to the limit of the model text, and bounded in every copy kept of it, the recording
    // included, from which a replay tells the model the same.
    let told: [(Failure, ErrorKind, &str); 2] = [
        (
            || {
                ToolError::failed("upstream down")
                    .with_model_message(upstream_said())
                    .into()
            },
            ErrorKind::Execution,
            "Error: tool 'failing' failed: ",
        ),
        (
            || ToolError::retry(upstream_said()).into(),
            ErrorKind::Retry,
            "Error: tool 'failing' asks you to correct the call and try again: ",
        ),
    ];
    for (fail, kind, prefix) in told {
        let harness = failing(fail);
        let outcome = harness.call(&call);
        let error = outcome.error(kind);
        let content = outcome.model_text();
        let shown = content
            .strip_prefix(prefix)
            .expect("the tool's message follows");
        assert_eq!(shown.chars().count(), 1000 + 1, "1000 characters and `…`");
        assert!(shown.starts_with("upstream said: xxx") && shown.ends_with("x…"));
        let agentkit_core::Error::Execution(e) = error else {
            panic!("{error:?}")
        };
        let kept = e.model_message().expect("a model message");
        assert!(kept.len() <= 8 * 1024 + 3, "{kind}: {} bytes", kept.len());
        assert!(
            e.message().len() <= 8 * 1024 + 3,
            "{kind}: {} bytes",
            e.message().len()
        );
        assert!(error.to_string().len() < 8 * 1024, "{kind}");
        let RecordedOutcome::Error(recorded) = &outcome.recordings[0].outcome else {
            panic!("{:?}", outcome.recordings[0])
        };
        let recorded = serde_json::to_string(recorded).unwrap();
        assert!(
            recorded.len() < 4 * 8 * 1024,
            "{kind}: {} bytes",
            recorded.len()
        );
        let _ = harness.replay(&outcome, &call);
    }
}

#[test]
fn tighter_limits_bound_the_text_the_same_way() {
    let limits = TextLimits::default()
        .with_max_issues(3)
        .with_max_echo_chars(10)
        .with_max_message_chars(20)
        .with_max_content_bytes(300);
    let (tool, _) = lookup_tool();
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let harness = Harness::configured(registry, limits, |builder| builder);

    let mut args = obj(json!({"city": 1}));
    for i in 0..1000 {
        args.insert(format!("{}_{i}", "long_name".repeat(5)), Value::Null);
    }
    let outcome = harness.call(&ToolCall::new("c", "lookup", args));
    let (issues, omitted) = outcome.input_issues();
    assert_eq!((issues.len(), omitted), (3, 1001 - 3));
    assert_eq!(
        outcome.model_text(),
        "Error: invalid arguments for tool 'lookup':\n\
         - Parameter 'city': expected type 'string', got 'integer'\n\
         - Unknown parameter: 'long_namel…'; it is not declared by this tool\n\
         - Unknown parameter: 'long_namel…'; it is not declared by this tool\n\
         - ... and 998 more"
    );

    // A model message past the message bound is cut to it.
    let (tool, _) = FnTool::new(bare_spec("failing"), |_, _| {
        Err::<JsonObject, BoxError>(
            ToolError::failed("upstream down")
                .with_model_message("m".repeat(10_000))
                .into(),
        )
    });
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let failing = Harness::configured(registry, limits, |builder| builder);
    let outcome = failing.call(&ToolCall::new("c", "failing", "{}"));
    let _ = outcome.error(ErrorKind::Execution);
    assert_eq!(
        outcome.model_text(),
        format!("Error: tool 'failing' failed: {}…", "m".repeat(20))
    );

    // A success past the content bound is cut to it.
    let outcome = harness.call(&ToolCall::new(
        "c",
        "lookup",
        json!({"city": "z".repeat(10_000)}),
    ));
    let _ = outcome.output();
    assert!(outcome.model_text().len() <= 300);
}

#[test]
fn an_output_with_twenty_thousand_long_undeclared_keys_is_counted() {
    let spec = agentkit_core::ToolSpec::builder("leaky")
        .output(agentkit_core::ToolSchema::new([]).unwrap())
        .build()
        .unwrap();
    let (tool, _) = FnTool::new(spec, |_, _| {
        Ok((0..20_000)
            .map(|i| (format!("{}{i}", "o".repeat(300)), Value::from(i)))
            .collect())
    });
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let harness = Harness::new(registry);
    let outcome = harness.call(&ToolCall::new("c", "leaky", "{}"));
    let error = outcome.error(ErrorKind::OutputValidation);
    let agentkit_core::Error::Validation(e) = error else {
        panic!("{error:?}")
    };
    assert_eq!((e.errors().len(), e.omitted()), (20, 20_000 - 20));
    assert_eq!(
        outcome.model_text(),
        "Error: tool 'leaky' failed: it produced an invalid result."
    );
    // Operators see the twenty, each key cut, and the count.
    let display = error.to_string();
    assert_eq!(display.lines().count(), 1 + 20 + 1, "{display:.500}");
    assert!(display.len() < 20 * 300, "{} bytes", display.len());
}
