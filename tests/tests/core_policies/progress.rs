//! Progress: reports reach observers in order, bounded and without secrets.

use super::*;

#[test]
fn progress_reaches_observers_in_order_bounded_and_without_secrets() {
    struct Crawl(ToolSpec);
    impl Tool for Crawl {
        fn spec(&self) -> &ToolSpec {
            &self.0
        }
        async fn execute(
            &self,
            _: &JsonObject,
            ctx: &ToolContext<'_>,
        ) -> Result<ToolOutput, BoxError> {
            let key = ctx.credential("key")?.expose().to_owned();
            for page in 1..=3 {
                ctx.report_progress(
                    Progress::new(f64::from(page))
                        .with_total(3.0)
                        .with_message(format!("page {page} via {key}")),
                );
            }
            ctx.report_progress(Progress::new(f64::NAN));
            ctx.report_progress(Progress::new(4.0).with_message("x".repeat(5_000)));
            Ok(JsonObject::new().into())
        }
    }
    let mut registry = ToolRegistry::new();
    registry
        .register(Crawl(
            ToolSpec::builder("crawl")
                .credential("key")
                .build()
                .unwrap(),
        ))
        .unwrap();
    let log = Log::default();
    let executor = ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with("key", "sk-PROGRESS"))
        .observer(log.observer())
        .build();
    assert!(block_on(executor.dispatch(&ToolCall::new("c1", "crawl", "{}"))).is_success());
    let progress: Vec<String> = log
        .all()
        .into_iter()
        .filter(|(n, _, _)| n == "tool.execution.progress")
        .map(|(_, _, detail)| detail)
        .collect();
    assert_eq!(progress.len(), 4, "the NaN report is dropped: {progress:?}");
    assert_eq!(
        &progress[..3],
        [
            "1/Some(3.0) page 1 via [redacted]",
            "2/Some(3.0) page 2 via [redacted]",
            "3/Some(3.0) page 3 via [redacted]",
        ]
    );
    let long = &progress[3];
    assert!(long.ends_with('…'), "cut");
    assert_eq!(long.chars().count(), "4/None ".len() + 1_000 + 1);
}
