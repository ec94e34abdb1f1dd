//! Behaviour of toolsets (views over a registry, for one turn) and of `ToolSearch` (the
//! `search_tools` tool): which tools a view declares and reaches, under which names, and what
//! a search finds.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use agentkit_core::{
    Approval, ErrorKind, JsonObject, ToolCall, ToolEvent, ToolExecutor, ToolRegistry, ToolSearch,
    ToolSpec, ToolStatus, block_on,
};
use proptest::prelude::*;
use serde_json::json;

use crate::core_fixtures::FnTool;

fn tool(name: &str, description: &str, team: &str) -> FnTool {
    let spec = ToolSpec::builder(name.to_owned())
        .description(description.to_owned())
        .tag("team", team.to_owned())
        .build()
        .unwrap();
    FnTool::new(spec, |inputs, _| Ok(inputs.clone())).0
}

/// Files, web and mail tools, in that order.
fn registry() -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    for (name, description, team) in [
        ("read_file", "Read a text file from the workspace.", "fs"),
        ("write_file", "Write a text file to the workspace.", "fs"),
        ("delete_file", "Delete a file from the workspace.", "fs"),
        (
            "web_search",
            "Search the web for pages about a topic.",
            "web",
        ),
        ("fetch_page", "Fetch a web page by its URL.", "web"),
        ("send_email", "Send an email to a contact.", "mail"),
    ] {
        registry.register(tool(name, description, team)).unwrap();
    }
    registry
}

fn names(view: &agentkit_core::Toolset<'_>) -> Vec<String> {
    view.tools()
        .map(|entry| entry.name().into_owned())
        .collect()
}

#[test]
fn conditions_combine_and_keep_registration_order() {
    let registry = registry();
    let all = registry.toolset();
    assert_eq!(all.len(), 6);
    let fs = all.clone().tagged("team", "fs");
    assert_eq!(names(&fs), ["read_file", "write_file", "delete_file"]);
    let safe = fs.clone().without(["delete_file"]);
    assert_eq!(names(&safe), ["read_file", "write_file"]);
    let named = all.clone().named(["send_email", "read_file"]);
    assert_eq!(names(&named), ["read_file", "send_email"]);
    let reading = all
        .clone()
        .filter(|spec| spec.description().starts_with("Read") || spec.name().starts_with("fetch"));
    assert_eq!(names(&reading), ["read_file", "fetch_page"]);
    // Every condition must hold.
    assert!(fs.clone().tagged("team", "web").is_empty());
    // The original view is untouched by the narrower ones made from it.
    assert_eq!(all.len(), 6);
}

#[test]
fn a_prefix_and_renames_change_the_names_the_view_declares_and_answers_to() {
    let registry = registry();
    let view = registry
        .toolset()
        .tagged("team", "fs")
        .rename("read_file", "cat")
        .prefix("fs_");
    assert_eq!(names(&view), ["fs_cat", "fs_write_file", "fs_delete_file"]);
    let entry = view.tools().next().unwrap();
    assert_eq!(entry.unprefixed_name(), "cat");
    assert_eq!(entry.prefix(), "fs_");
    assert_eq!(entry.spec().name(), "read_file");
    assert_eq!(view.lookup("fs_cat").map(ToolSpec::name), Some("read_file"));
    // Neither the tool's own name nor a name without the prefix reaches it.
    for name in ["fs_read_file", "read_file", "cat", "write_file", "fs_"] {
        assert!(view.lookup(name).is_none(), "{name} should reach nothing");
    }
}

#[test]
fn a_view_never_declares_two_tools_by_one_name() {
    let registry = registry();
    // A rename onto another tool's name hides that tool.
    let view = registry.toolset().rename("write_file", "read_file");
    assert_eq!(
        names(&view),
        [
            "read_file",
            "delete_file",
            "web_search",
            "fetch_page",
            "send_email"
        ]
    );
    assert_eq!(
        view.lookup("read_file").map(ToolSpec::name),
        Some("write_file")
    );
    assert!(view.lookup("write_file").is_none());
    // Two renames onto one name: the last wins.
    let view = registry
        .toolset()
        .rename("read_file", "file")
        .rename("write_file", "file");
    assert_eq!(view.lookup("file").map(ToolSpec::name), Some("write_file"));
    assert_eq!(names(&view).iter().filter(|n| *n == "file").count(), 1);
    // A tool renamed twice answers to its last name only.
    let view = registry
        .toolset()
        .rename("read_file", "cat")
        .rename("read_file", "view");
    assert!(view.lookup("cat").is_none());
    assert_eq!(view.lookup("view").map(ToolSpec::name), Some("read_file"));
}

#[test]
fn a_call_through_a_view_reaches_its_tools_only_with_suggestions_from_it() {
    let executor = ToolExecutor::new(registry());
    let view = executor.toolset().tagged("team", "web");
    let result = block_on(executor.dispatch_in(&view, &ToolCall::new("c1", "fetch_page", "{}")));
    assert!(result.is_success());

    // Registered, but not in the view: an unknown tool, whatever the registry holds.
    let result = block_on(executor.dispatch_in(&view, &ToolCall::new("c2", "read_file", "{}")));
    let error = result.error().unwrap();
    assert_eq!(error.kind(), ErrorKind::UnknownTool);
    assert_eq!(result.to_model_content(), "Error: unknown tool 'read_file'");

    // A typo's suggestions name the view's tools, never one outside it.
    let result = block_on(executor.dispatch_in(&view, &ToolCall::new("c3", "fetch_file", "{}")));
    let content = result.to_model_content();
    assert!(content.contains("fetch_page"), "{content}");
    assert!(!content.contains("read_file"), "{content}");
    assert!(!content.contains("delete_file"), "{content}");

    // Without the view, the same executor reaches every tool.
    let result = block_on(executor.dispatch(&ToolCall::new("c4", "read_file", "{}")));
    assert!(result.is_success());
}

#[test]
fn a_call_through_a_view_is_named_as_the_model_called_it() {
    let events: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen = Arc::clone(&events);
    let mut registry = ToolRegistry::new();
    let spec = ToolSpec::builder("read_file")
        .input(
            agentkit_core::ToolSchema::new([agentkit_core::Param::required(
                "path",
                agentkit_core::ParamType::String,
            )])
            .unwrap(),
        )
        .build()
        .unwrap();
    registry
        .register(FnTool::new(spec, |_, _| Ok(JsonObject::new())).0)
        .unwrap();
    let executor = ToolExecutor::builder(registry)
        .observer(move |event: &ToolEvent<'_>| {
            seen.lock().unwrap().push(event.tool_name().to_owned());
        })
        .build();
    let view = executor.toolset().rename("read_file", "cat").prefix("fs_");

    let result = block_on(executor.dispatch_in(&view, &ToolCall::new("c1", "fs_cat", "{}")));
    assert_eq!(result.tool_name(), "fs_cat");
    assert_eq!(result.error().unwrap().kind(), ErrorKind::InputValidation);
    let content = result.to_model_content();
    assert!(content.contains("'fs_cat'"), "{content}");
    assert!(!content.contains("read_file"), "{content}");
    assert_eq!(*events.lock().unwrap(), ["fs_cat", "fs_cat"]);

    let call = ToolCall::new("c2", "fs_cat", r#"{"path": "a.txt"}"#);
    let result = block_on(executor.dispatch_in(&view, &call));
    assert!(result.is_success());
    assert_eq!(result.tool_name(), "fs_cat");
}

#[test]
fn a_call_deferred_through_a_view_resumes_by_the_tools_own_name() {
    let mut registry = ToolRegistry::new();
    let spec = ToolSpec::builder("delete_file")
        .requires_approval()
        .build()
        .unwrap();
    registry
        .register(FnTool::new(spec, |_, _| Ok(JsonObject::new())).0)
        .unwrap();
    let executor = ToolExecutor::new(registry);
    let view = executor.toolset().prefix("fs_");
    let result =
        block_on(executor.dispatch_in(&view, &ToolCall::new("c1", "fs_delete_file", "{}")));
    assert_eq!(result.status(), ToolStatus::Deferred);
    assert_eq!(result.tool_name(), "fs_delete_file");
    let deferred = result.into_deferred().unwrap();
    assert_eq!(deferred.tool_name(), "delete_file");
    let resumed = block_on(executor.resume(deferred, Approval::Allow));
    assert!(resumed.is_success(), "{}", resumed.to_model_content());
}

#[test]
fn a_turn_with_a_toolset_runs_its_calls_through_it() {
    let executor = ToolExecutor::new(registry());
    let turn = executor
        .turn()
        .with_toolset(executor.toolset().tagged("team", "mail").prefix("mail_"));
    let calls = [
        ToolCall::new("c1", "mail_send_email", "{}"),
        ToolCall::new("c2", "send_email", "{}"),
        ToolCall::new("c3", "read_file", "{}"),
    ];
    let results = block_on(turn.dispatch_all(&calls));
    assert!(results[0].is_success());
    assert_eq!(results[1].error().unwrap().kind(), ErrorKind::UnknownTool);
    assert_eq!(results[2].error().unwrap().kind(), ErrorKind::UnknownTool);
    assert!(turn.toolset().is_some());
}

#[test]
fn a_view_of_another_registry_reaches_none_of_the_executors_tools() {
    let executor = ToolExecutor::new(registry());
    let other = registry();
    let view = other.toolset();
    let result = block_on(executor.dispatch_in(&view, &ToolCall::new("c1", "read_file", "{}")));
    assert_eq!(result.error().unwrap().kind(), ErrorKind::UnknownTool);
}

#[test]
fn deferred_tools_are_marked_until_loaded() {
    let registry = registry();
    let view = registry
        .toolset()
        .prefix("x_")
        .defer(|spec| spec.tag("team") != Some("fs"));
    let deferred: Vec<String> = view
        .tools()
        .filter(|entry| entry.is_deferred())
        .map(|entry| entry.name().into_owned())
        .collect();
    assert_eq!(deferred, ["x_web_search", "x_fetch_page", "x_send_email"]);
    let loaded = view.load(["x_fetch_page", "fetch_page"]);
    let deferred: Vec<String> = loaded
        .tools()
        .filter(|entry| entry.is_deferred())
        .map(|entry| entry.name().into_owned())
        .collect();
    assert_eq!(deferred, ["x_web_search", "x_send_email"]);
}

#[test]
fn a_search_ranks_by_name_then_description_and_tags() {
    let registry = registry();
    let search = ToolSearch::new(registry.toolset().tools());
    assert_eq!(search.len(), 6);
    let hits = search.search("email", 5);
    assert_eq!(hits[0].name(), "send_email");
    // A word of the name counts more than the same word in a description.
    let hits = search.search("search", 5);
    assert_eq!(hits[0].name(), "web_search");
    let hits: Vec<&str> = search
        .search("Files", 10)
        .iter()
        .map(|h| h.name())
        .collect();
    assert_eq!(hits.len(), 3);
    assert!(hits.iter().all(|name| name.ends_with("_file")), "{hits:?}");
    // Tags are searched too.
    let hits: Vec<&str> = search.search("web", 10).iter().map(|h| h.name()).collect();
    assert_eq!(
        hits.iter().copied().collect::<BTreeSet<_>>(),
        BTreeSet::from(["web_search", "fetch_page"])
    );
    // Scores are ordered, the limit holds, and words found nowhere find nothing.
    let hits = search.search("file web page", 2);
    assert_eq!(hits.len(), 2);
    assert!(hits[0].score() >= hits[1].score());
    assert!(search.search("the of and", 5).is_empty());
    assert!(search.search("", 5).is_empty());
    assert!(search.search("zeppelin", 5).is_empty());
}

#[test]
fn a_search_indexes_the_names_the_view_gives() {
    let registry = registry();
    let view = registry.toolset().tagged("team", "fs").prefix("fs_");
    let search = ToolSearch::new(view.tools());
    let hits = search.search("delete", 5);
    assert_eq!(hits[0].name(), "fs_delete_file");
    assert_eq!(hits[0].spec().name(), "delete_file");
    assert!(search.search("email", 5).is_empty());
}

#[test]
fn the_search_tool_returns_declarations_the_loop_can_load() {
    let mut registry = registry();
    let search = ToolSearch::new(
        registry
            .toolset()
            .defer(|spec| spec.tag("team") == Some("web"))
            .tools()
            .filter(|entry| entry.is_deferred()),
    );
    registry.register(search).unwrap();
    let executor = ToolExecutor::new(registry);
    let call = ToolCall::new(
        "c1",
        "search_tools",
        r#"{"query": "fetch a page by URL", "limit": 1}"#,
    );
    let result = block_on(executor.dispatch(&call));
    assert!(result.is_success(), "{}", result.to_model_content());
    let output = result.output().unwrap();
    assert_eq!(
        output["tools"],
        json!([{
            "name": "fetch_page",
            "description": "Fetch a web page by its URL.",
            "input_schema": {"type": "object"},
        }])
    );
    assert_eq!(ToolSearch::found(&result), ["fetch_page"]);

    // The limit is the schema's: from 1 to 20.
    for limit in ["0", "21", "\"5\""] {
        let arguments = format!(r#"{{"query": "web", "limit": {limit}}}"#);
        let result = block_on(executor.dispatch(&ToolCall::new("c2", "search_tools", arguments)));
        assert_eq!(
            result.error().map(|e| e.kind()),
            Some(ErrorKind::InputValidation),
            "limit {limit}"
        );
        assert!(ToolSearch::found(&result).is_empty());
    }

    // A query of a megabyte is cut, not refused, and answers within the limit.
    let query = "page ".repeat(200_000);
    let arguments = json!({"query": query}).to_string();
    let result = block_on(executor.dispatch(&ToolCall::new("c3", "search_tools", arguments)));
    assert!(result.is_success());
    // `web_search` speaks of "pages" too, below the tool named for them.
    assert_eq!(ToolSearch::found(&result), ["fetch_page", "web_search"]);

    let spec = executor.registry().lookup("search_tools").unwrap();
    assert_eq!(spec.annotations().read_only(), Some(true));
}

#[test]
fn the_search_tool_takes_another_valid_name_only() {
    let search = ToolSearch::new(registry().toolset().tools());
    assert!(search.with_name("find tools!").is_err());
    let search = ToolSearch::new(registry().toolset().tools())
        .with_name("find_tools")
        .unwrap();
    let mut registry = ToolRegistry::new();
    registry.register(search).unwrap();
    assert!(registry.lookup("find_tools").is_some());
}

/// The names tools may have in the property test, few enough to collide.
const NAMES: [&str; 6] = ["a", "b", "c", "ab", "b_c", "x"];

fn view_of<'r>(
    registry: &'r ToolRegistry,
    keep: &[bool],
    renames: &[(usize, usize)],
    prefix: bool,
) -> agentkit_core::Toolset<'r> {
    let kept: Vec<&'static str> = NAMES
        .iter()
        .zip(keep)
        .filter(|(_, keep)| **keep)
        .map(|(name, _)| *name)
        .collect();
    let mut view = registry.toolset().named(kept);
    for &(from, to) in renames {
        view = view.rename(NAMES[from], NAMES[to]);
    }
    if prefix { view.prefix("p_") } else { view }
}

proptest! {
    /// Whatever the conditions and renames: a view declares each name once, every name it
    /// declares reaches the tool declared under it, and no other name reaches anything.
    #[test]
    fn a_view_answers_to_exactly_the_names_it_declares(
        keep in proptest::collection::vec(any::<bool>(), NAMES.len()),
        renames in proptest::collection::vec((0..NAMES.len(), 0..NAMES.len()), 0..5),
        prefix in any::<bool>(),
    ) {
        let mut registry = ToolRegistry::new();
        for name in NAMES {
            registry.register(tool(name, "", "t")).unwrap();
        }
        let view = view_of(&registry, &keep, &renames, prefix);
        let declared: Vec<(String, String)> = view
            .tools()
            .map(|entry| (entry.name().into_owned(), entry.spec().name().to_owned()))
            .collect();
        let unique: BTreeSet<&String> = declared.iter().map(|(name, _)| name).collect();
        prop_assert_eq!(unique.len(), declared.len());
        for (name, own) in &declared {
            prop_assert_eq!(view.lookup(name).map(ToolSpec::name), Some(own.as_str()));
        }
        for candidate in NAMES.iter().flat_map(|n| [n.to_string(), format!("p_{n}")]) {
            let reached = view.lookup(&candidate).is_some();
            prop_assert_eq!(reached, unique.contains(&candidate), "{}", candidate);
        }
    }
}

/// Observers see the view's names; the approval policy, the tool's own spec.
#[test]
fn the_approval_policy_sees_the_tools_own_spec() {
    let asked: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen = Arc::clone(&asked);
    let mut registry = ToolRegistry::new();
    let spec = ToolSpec::builder("delete_file")
        .requires_approval()
        .build()
        .unwrap();
    registry
        .register(FnTool::new(spec, |_, _| Ok(JsonObject::new())).0)
        .unwrap();
    let executor = ToolExecutor::builder(registry)
        .approval(move |request: &agentkit_core::ApprovalRequest<'_>| {
            seen.lock().unwrap().push(request.tool_name().to_owned());
            Approval::Allow
        })
        .build();
    let view = executor.toolset().prefix("fs_");
    let result =
        block_on(executor.dispatch_in(&view, &ToolCall::new("c1", "fs_delete_file", "{}")));
    assert!(result.is_success());
    assert_eq!(*asked.lock().unwrap(), ["delete_file"]);
}

#[test]
fn declarations_come_from_a_view_by_the_names_it_gives() {
    use agentkit_core::provider::{anthropic, gemini, mcp, openai_chat, openai_responses};
    let registry = registry();
    let view = registry
        .toolset()
        .tagged("team", "fs")
        .rename("read_file", "cat")
        .prefix("fs_");
    let expected = ["fs_cat", "fs_write_file", "fs_delete_file"];
    let names = |declared: &serde_json::Value, path: &[&str]| -> Vec<String> {
        declared
            .as_array()
            .unwrap()
            .iter()
            .map(|tool| {
                let mut value = tool;
                for key in path {
                    value = &value[*key];
                }
                value.as_str().unwrap().to_owned()
            })
            .collect()
    };
    assert_eq!(names(&anthropic::tools(view.tools()), &["name"]), expected);
    assert_eq!(
        names(&anthropic::strict_tools(view.tools()), &["name"]),
        expected
    );
    assert_eq!(
        names(&openai_responses::tools(view.tools()), &["name"]),
        expected
    );
    assert_eq!(
        names(
            &openai_chat::strict_tools(view.tools()),
            &["function", "name"]
        ),
        expected
    );
    assert_eq!(names(&mcp::tools(view.tools()), &["name"]), expected);
    assert_eq!(
        names(
            &gemini::tools(view.tools())[0]["functionDeclarations"],
            &["name"]
        ),
        expected
    );
    // The same spec declared by its own name, by the view's, is otherwise the same.
    let own = anthropic::tools([registry.lookup("read_file").unwrap()]);
    let mut viewed = anthropic::tools(view.tools())[0].clone();
    viewed["name"] = own[0]["name"].clone();
    assert_eq!(viewed, own[0]);
}

#[test]
fn deferred_tools_are_declared_where_the_api_can_defer_and_left_out_elsewhere() {
    use agentkit_core::provider::{anthropic, gemini, mcp, openai_chat, openai_responses};
    let registry = registry();
    let view = registry
        .toolset()
        .defer(|spec| spec.tag("team") == Some("web"))
        .load(["fetch_page"]);
    // Anthropic: marked, and its tool search tool after the others.
    let declared = anthropic::tools(view.tools());
    let tools = declared.as_array().unwrap();
    assert_eq!(tools.len(), 7);
    let web_search = tools.iter().find(|t| t["name"] == "web_search").unwrap();
    assert_eq!(web_search["defer_loading"], true);
    let fetch_page = tools.iter().find(|t| t["name"] == "fetch_page").unwrap();
    assert!(fetch_page.get("defer_loading").is_none());
    assert_eq!(
        tools[6],
        json!({"type": anthropic::TOOL_SEARCH, "name": "tool_search_tool_bm25"})
    );
    // OpenAI Responses: marked, and the hosted tool search.
    let declared = openai_responses::strict_tools(view.tools());
    let tools = declared.as_array().unwrap();
    assert_eq!(tools.len(), 7);
    assert_eq!(tools[3]["name"], "web_search");
    assert_eq!(tools[3]["defer_loading"], true);
    assert_eq!(tools[6], json!({"type": "tool_search"}));
    // OpenAI Chat and Gemini cannot defer: the deferred tool is left out.
    let declared = openai_chat::tools(view.tools());
    assert_eq!(declared.as_array().unwrap().len(), 5);
    assert!(!declared.to_string().contains("web_search"));
    let declared = gemini::tools(view.tools());
    assert_eq!(
        declared[0]["functionDeclarations"]
            .as_array()
            .unwrap()
            .len(),
        5
    );
    // MCP lists every tool: deferring is its host's business.
    assert_eq!(mcp::tools(view.tools()).as_array().unwrap().len(), 6);
    // Nothing deferred: no search tool is declared.
    let declared = anthropic::tools(registry.toolset().tools());
    assert_eq!(declared.as_array().unwrap().len(), 6);
    assert!(!declared.to_string().contains("defer_loading"));
}

#[test]
fn input_examples_are_declared_in_anthropics_field_and_elsewhere_in_the_description() {
    use agentkit_core::provider::{anthropic, gemini, mcp, openai_chat, openai_responses};
    use agentkit_core::{Param, ParamType, ToolSchema};
    let example = |city: &str| crate::core_fixtures::obj(json!({"city": city}));
    let spec = ToolSpec::builder("forecast")
        .description("Weather forecast.")
        .input(ToolSchema::new([Param::required("city", ParamType::String)]).unwrap())
        .examples([example("Paris"), example("Lyon")])
        .build()
        .unwrap();
    let declared = anthropic::tools([&spec]);
    assert_eq!(
        declared[0]["input_examples"],
        json!([{"city": "Paris"}, {"city": "Lyon"}])
    );
    assert_eq!(declared[0]["description"], "Weather forecast.");
    let described =
        "Weather forecast.\n\nExamples of arguments:\n{\"city\":\"Paris\"}\n{\"city\":\"Lyon\"}";
    assert_eq!(
        openai_chat::tools([&spec])[0]["function"]["description"],
        described
    );
    assert_eq!(
        openai_responses::tools([&spec])[0]["description"],
        described
    );
    assert_eq!(
        gemini::tools([&spec])[0]["functionDeclarations"][0]["description"],
        described
    );
    assert_eq!(mcp::tools([&spec])[0]["description"], described);

    // The examples a description carries are bounded: those that fit, in order.
    let long =
        |n: usize| crate::core_fixtures::obj(json!({"city": format!("{n}{}", "x".repeat(400))}));
    let spec = ToolSpec::builder("forecast")
        .input(ToolSchema::new([Param::required("city", ParamType::String)]).unwrap())
        .examples((0..5).map(long))
        .build()
        .unwrap();
    let description = openai_chat::tools([&spec])[0]["function"]["description"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(description.len() <= 1_100, "{}", description.len());
    assert_eq!(description.matches("\"city\"").count(), 2);
    assert_eq!(
        anthropic::tools([&spec])[0]["input_examples"]
            .as_array()
            .unwrap()
            .len(),
        5
    );
}
