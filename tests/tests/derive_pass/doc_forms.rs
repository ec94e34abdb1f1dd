//! The example of the same name in agentkit-derive's documentation.

use agentkit_core::{BoxError, JsonObject, ToolContext, ToolHandler, tool};

#[tool(
    name = "browse",
    defs = {
        selector = [
            { name = "css", type = string },
            { name = "within", type = selector, required = false },
        ],
    },
    input = [
        { name = "action", type = union, tag = "type", variants = [
            { tag = "click", fields = [{ name = "x", type = integer }, { name = "y", type = integer }] },
            { tag = "type", fields = [{ name = "text", type = string }, { name = "into", type = selector }] },
            { tag = "wait" },
        ] },
        { name = "headers", type = map, values = string, required = false },
        { name = "viewport", type = tuple, items = [integer, integer], required = false, default = [1280, 720] },
        { name = "context", type = any, required = false },
        { name = "reason", type = string, nullable = true },
    ],
    examples = [{ action = { type = "click", x = 10, y = 20 }, reason = "open the menu" }],
)]
pub struct Browse;

impl ToolHandler for Browse {
    async fn run(&self, input: BrowseInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let done = match input.action {
            BrowseInputAction::Click { x, y } => format!("clicked at {x}, {y}"),
            BrowseInputAction::Type { text, into } => format!("typed {text:?} into {}", into.css),
            BrowseInputAction::Wait => "waited".to_owned(),
        };
        let (width, height) = input.viewport;
        let _ = (input.headers, input.context, input.reason, width, height);
        let mut output = JsonObject::new();
        output.insert("done".into(), done.into());
        Ok(output)
    }
}

pub(crate) fn main() {
    use agentkit_core::{block_on, ToolCall, ToolExecutor, ToolRegistry};
    let mut registry = ToolRegistry::new();
    registry.register(Browse).unwrap();
    let executor = ToolExecutor::new(registry);
    let call = |arguments: &str| {
        block_on(executor.dispatch(&ToolCall::new("c1", "browse", arguments))).to_model_content()
    };
    assert_eq!(
        call(r##"{"action": {"type": "type", "text": "hi", "into": {"css": "#q", "within": {"css": "form"}}}, "reason": null}"##),
        r##"{"done":"typed \"hi\" into #q"}"##
    );
    assert_eq!(
        call(r#"{"action": {"type": "click", "x": "10"}, "reason": "menu"}"#),
        "Error: invalid arguments for tool 'browse':
- Parameter 'action.x': expected type 'integer', got 'string'
- Missing required parameter: 'action.y'"
    );
}
