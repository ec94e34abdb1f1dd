//! Behaviour of tool annotations: what a tool says of its effects (a title; read-only,
//! destructive, idempotent, open-world hints), set on a spec, kept in its JSON shape, refused
//! when they contradict each other, shown to approval policies and declared to MCP clients.

use std::sync::{Arc, Mutex};

use agentkit_core::provider::mcp;
use agentkit_core::{
    Approval, ApprovalRequest, JsonObject, ToolCall, ToolExecutor, ToolRegistry, ToolSpec,
    ToolStatus, block_on,
};
use serde_json::json;

use crate::core_fixtures::FnTool;

fn delete_file() -> ToolSpec {
    ToolSpec::builder("delete_file")
        .title("Delete a file")
        .destructive(true)
        .idempotent(true)
        .open_world(false)
        .requires_approval()
        .build()
        .unwrap()
}

#[test]
fn annotations_are_set_read_and_kept_in_the_json_shape() {
    let spec = delete_file();
    let annotations = spec.annotations();
    assert_eq!(annotations.title(), Some("Delete a file"));
    assert_eq!(annotations.read_only(), None);
    assert_eq!(annotations.destructive(), Some(true));
    assert_eq!(annotations.idempotent(), Some(true));
    assert_eq!(annotations.open_world(), Some(false));
    assert!(annotations.may_destroy());
    let value = spec.to_value();
    assert_eq!(
        value["annotations"],
        json!({"title": "Delete a file", "destructive": true, "idempotent": true, "open_world": false})
    );
    assert_eq!(ToolSpec::from_value(value).unwrap(), spec);
    // Unset hints are left out; MCP's reading of them applies.
    let plain = ToolSpec::builder("lookup").build().unwrap();
    assert!(plain.annotations().is_empty());
    assert!(plain.to_value().get("annotations").is_none());
    assert!(
        plain.annotations().may_destroy(),
        "unset destructive counts as destructive"
    );
    let reader = ToolSpec::builder("lookup").read_only(true).build().unwrap();
    assert!(!reader.annotations().may_destroy());
}

#[test]
fn read_only_and_destructive_together_are_refused_in_the_rules_words() {
    let err = ToolSpec::builder("x")
        .read_only(true)
        .destructive(true)
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid tool declaration: annotations: a tool cannot be both 'read_only' and \
         'destructive': a tool that only reads destroys nothing; drop one of them"
    );
    // The same from JSON data, with a malformed hint reported beside it.
    let err = ToolSpec::from_value(json!({
        "name": "x",
        "annotations": {"read_only": true, "destructive": true, "idempotent": "yes"},
    }))
    .unwrap_err();
    assert_eq!(err.problems().len(), 2, "{err}");
    // Read-only and explicitly not destructive is fine.
    assert!(
        ToolSpec::builder("x")
            .read_only(true)
            .destructive(false)
            .build()
            .is_ok()
    );
}

#[test]
fn mcp_declarations_carry_the_title_and_hints() {
    let tool = mcp::tool(&delete_file());
    assert_eq!(tool["title"], "Delete a file");
    assert_eq!(
        tool["annotations"],
        json!({
            "title": "Delete a file",
            "destructiveHint": true,
            "idempotentHint": true,
            "openWorldHint": false,
        })
    );
    let plain = mcp::tool(&ToolSpec::builder("lookup").build().unwrap());
    assert!(plain.get("annotations").is_none(), "{plain}");
}

#[test]
fn approval_policies_see_the_annotations() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (delete, probe) = FnTool::new(delete_file(), |_, _| Ok(JsonObject::new()));
    let (archive, _) = FnTool::new(
        ToolSpec::builder("archive")
            .destructive(false)
            .requires_approval()
            .build()
            .unwrap(),
        |_, _| Ok(JsonObject::new()),
    );
    let mut registry = ToolRegistry::new();
    registry.register(delete).unwrap();
    registry.register(archive).unwrap();
    let log = Arc::clone(&seen);
    let executor = ToolExecutor::builder(registry)
        .approval(move |request: &ApprovalRequest<'_>| {
            log.lock().unwrap().push((
                request.tool_name().to_owned(),
                request.annotations().title().map(str::to_owned),
            ));
            // Destructive tools need a person; the others run.
            if request.annotations().may_destroy() {
                Approval::Defer
            } else {
                Approval::Allow
            }
        })
        .build();
    let deleted = block_on(executor.dispatch(&ToolCall::new("1", "delete_file", "{}")));
    let archived = block_on(executor.dispatch(&ToolCall::new("2", "archive", "{}")));
    assert_eq!(deleted.status(), ToolStatus::Deferred);
    assert_eq!(archived.status(), ToolStatus::Success);
    assert_eq!(probe.runs(), 0);
    assert_eq!(
        *seen.lock().unwrap(),
        [
            ("delete_file".to_owned(), Some("Delete a file".to_owned())),
            ("archive".to_owned(), None)
        ]
    );
}
