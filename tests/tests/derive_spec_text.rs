//! A tool declared with parameter lists has its spec written by `#[tool(...)]` as text and
//! read on first use: every key of the declaration reaches the spec as the builder makes it,
//! the tags in the order written, and the spec is read once.

use std::time::Duration;

use agentkit_core::{
    BoxError, JsonObject, Param, ParamType, TaskSupport, Tool, ToolContext, ToolHandler,
    ToolSchema, ToolSpec, tool,
};
use serde_json::json;

/// Every key the text carries, with values that need escaping, a float parameter's default
/// written as an integer, nested fields, and tags written against alphabetical order.
#[tool(
    name = "file_report",
    description = "Files a \"report\"\non a path like C:\\reports\\é.",
    version = "2.1.0",
    input = [
        { name = "title", type = string, description = "The title, \"quoted\".", min_length = 1, max_length = 80 },
        { name = "weight", type = float, required = false, default = 2, minimum = 0, maximum = 10.5 },
        { name = "level", type = integer, required = false, enum = [1, 2, 3], default = 2 },
        { name = "labels", type = list, items = string, required = false, min_items = 0, max_items = 4 },
        { name = "place", type = dictionary, required = false, default = { city = "Oslo" }, fields = [
            { name = "city", type = string },
            { name = "zip", type = integer, required = false, default = -1 },
        ] },
    ],
    output = [
        { name = "id", type = string },
        { name = "notes", type = list, items = dictionary, fields = [{ name = "text", type = string }] },
    ],
    tags = { zone = "north", area = "ops", "x-team" = "core" },
    credentials = ["report-token", "audit-key"],
    timeout = "90s",
    sequential,
    retries = 2,
    task_support = "optional",
    title = "File a report",
    read_only = false,
    idempotent,
    examples = [{ title = "Q3" }, { title = "Q4", weight = 1.5, place = { city = "Bergen" } }],
)]
struct FileReport;

impl ToolHandler for FileReport {
    async fn run(
        &self,
        input: FileReportInput,
        _: &ToolContext<'_>,
    ) -> Result<FileReportOutput, BoxError> {
        Ok(FileReportOutput {
            id: input.title,
            notes: Vec::new(),
        })
    }
}

fn object(value: serde_json::Value) -> JsonObject {
    value.as_object().cloned().expect("an object")
}

fn built() -> ToolSpec {
    let place = ToolSchema::new([
        Param::required("city", ParamType::String),
        Param::optional("zip", ParamType::Integer).with_default(-1),
    ])
    .unwrap();
    let notes = ToolSchema::new([Param::required("text", ParamType::String)]).unwrap();
    ToolSpec::builder("file_report")
        .description("Files a \"report\"\non a path like C:\\reports\\é.")
        .version("2.1.0")
        .input(
            ToolSchema::new([
                Param::required("title", ParamType::String)
                    .with_description("The title, \"quoted\".")
                    .with_min_length(1)
                    .with_max_length(80),
                Param::optional("weight", ParamType::Float)
                    .with_default(2)
                    .with_minimum(0)
                    .with_maximum(10.5),
                Param::optional("level", ParamType::Integer)
                    .with_enum([1, 2, 3])
                    .with_default(2),
                Param::optional("labels", ParamType::List)
                    .with_items(ParamType::String)
                    .with_min_items(0)
                    .with_max_items(4),
                Param::optional("place", ParamType::Dictionary)
                    .with_fields(place)
                    .with_default(json!({"city": "Oslo", "zip": -1})),
            ])
            .unwrap(),
        )
        .output(
            ToolSchema::new([
                Param::required("id", ParamType::String),
                Param::required("notes", ParamType::List)
                    .with_items(ParamType::Dictionary)
                    .with_fields(notes),
            ])
            .unwrap(),
        )
        .tag("zone", "north")
        .tag("area", "ops")
        .tag("x-team", "core")
        .credential("report-token")
        .credential("audit-key")
        .timeout(Duration::from_secs(90))
        .sequential()
        .retries(2)
        .task_support(TaskSupport::Optional)
        .title("File a report")
        .read_only(false)
        .idempotent(true)
        .example(object(json!({"title": "Q3"})))
        .example(object(
            json!({"title": "Q4", "weight": 1.5, "place": {"city": "Bergen"}}),
        ))
        .build()
        .unwrap()
}

#[test]
fn every_key_reaches_the_spec_as_the_builder_makes_it() {
    assert_eq!(FileReport.spec(), &built());
    assert_eq!(FileReport.spec().to_value(), built().to_value());
}

#[test]
fn the_tags_keep_the_order_they_are_written_in() {
    let tags: Vec<_> = FileReport.spec().tags().collect();
    assert_eq!(
        tags,
        [("zone", "north"), ("area", "ops"), ("x-team", "core")]
    );
}

#[test]
fn the_spec_is_read_once() {
    assert!(std::ptr::eq(FileReport.spec(), FileReport.spec()));
    let threads: Vec<_> = (0..4)
        .map(|_| std::thread::spawn(|| std::ptr::from_ref(FileReport.spec()) as usize))
        .collect();
    let first = std::ptr::from_ref(FileReport.spec()) as usize;
    for thread in threads {
        assert_eq!(thread.join().unwrap(), first);
    }
}
