//! Bounds, secrets and replays of content results.

use super::*;

#[test]
fn a_part_over_the_binary_limit_fails_the_call() {
    let result = dispatch("big", "huge");
    assert_eq!(result.error_kind(), Some(ErrorKind::Execution));
    let Some(Error::Execution(error)) = result.error() else {
        panic!("an execution error: {result:?}");
    };
    let cause = error
        .cause()
        .downcast_ref::<ContentTooLarge>()
        .expect("the cause is ContentTooLarge");
    assert_eq!((cause.bytes(), cause.limit()), (2048, 1024));
    assert!(result.content().is_empty());
    // Every API is told that the call failed, in its error shape.
    let r = render(&result);
    assert_eq!(r.anthropic["is_error"], true);
    assert!(r.anthropic["content"].is_string());
    assert!(r.responses["output"].is_string());
    assert_eq!(r.chat.len(), 1);
    assert!(r.gemini["functionResponse"]["response"]["error"].is_string());
    assert_eq!(r.mcp["isError"], true);
}

#[test]
fn a_secret_in_a_text_part_is_redacted_in_every_rendering() {
    let result = dispatch("s1", "leaky");
    assert!(result.is_success(), "{result:?}");
    assert_eq!(
        result.content()[0],
        Content::text("Signed in with [redacted].")
    );
    let r = render(&result);
    let renderings = [
        ("anthropic", r.anthropic),
        ("openai_responses", r.responses),
        ("openai_chat", Value::Array(r.chat)),
        ("gemini", r.gemini),
        ("mcp", r.mcp),
    ];
    for (api, rendering) in renderings {
        let text = rendering.to_string();
        assert!(!text.contains(SECRET), "{api} shows the secret: {text}");
        assert!(text.contains("Signed in with [redacted]."), "{api}: {text}");
    }
}

/// Whatever the size of a link's name and URI or of the structured output, what a renderer
/// writes of its own (descriptions, titles, file names, the output's JSON) stays bounded.
#[test]
fn what_a_renderer_writes_of_its_own_is_bounded() {
    struct Hostile(ToolSpec);
    impl Tool for Hostile {
        fn spec(&self) -> &ToolSpec {
            &self.0
        }
        async fn execute(
            &self,
            _: &JsonObject,
            _: &ToolContext<'_>,
        ) -> Result<ToolOutput, BoxError> {
            let long = "x".repeat(200_000);
            Ok(ToolOutput::from(obj(json!({"blob": long})))
                .with(ResourceLink::new(format!("https://{long}"), long.clone()))
                .with(Content::audio(WAV, long.clone()))
                .with(Content::from(
                    EmbeddedResource::blob(format!("file:///{long}.pdf"), PDF)
                        .with_mime_type("application/pdf"),
                ))
                .with(Content::from(
                    EmbeddedResource::blob(format!("file:///{long}"), CSV).with_mime_type(long),
                )))
        }
    }
    let mut registry = ToolRegistry::new();
    registry.register(Hostile(spec("hostile"))).unwrap();
    let executor = ToolExecutor::new(registry);
    let result = block_on(executor.dispatch(&ToolCall::new("h1", "hostile", "{}")));
    assert!(result.is_success(), "{result:?}");
    let max = result.text_limits().max_content_bytes();

    // Each string the renderings hold, but the base64 data.
    fn strings<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
        match value {
            Value::String(s) if !s.starts_with("data:") => out.push(s),
            Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
            Value::Object(map) => map
                .iter()
                .filter(|(key, _)| !matches!(key.as_str(), "data" | "file_data"))
                .for_each(|(_, v)| strings(v, out)),
            _ => {}
        }
    }
    // Gemini's `response.output` is the tool's own output object, as the tool returned it.
    let mut gemini = gemini::result(&result);
    let output = gemini["functionResponse"]["response"]
        .as_object_mut()
        .unwrap()
        .remove("output");
    assert_eq!(output.as_ref(), result.output());
    let renderings = [
        anthropic::result(&result),
        openai_responses::result(&result),
        Value::Array(openai_chat::results(std::slice::from_ref(&result))),
        gemini,
    ];
    for rendering in &renderings {
        let mut found = Vec::new();
        strings(rendering, &mut found);
        for s in found {
            assert!(s.len() <= max, "{} bytes in {:.80}", s.len(), s);
        }
    }
    // The output's JSON is cut as in the model text; the descriptions are short.
    let blocks = renderings[0]["content"].as_array().unwrap();
    assert!(blocks[0]["text"].as_str().unwrap().contains("[truncated:"));
    for block in &blocks[1..] {
        if let Some(text) = block["text"].as_str() {
            assert!(text.len() < 1024, "{text:.100}");
        }
        if let Some(title) = block["title"].as_str() {
            assert!(title.len() < 1024, "{title:.100}");
        }
    }
    let items = renderings[1]["output"].as_array().unwrap();
    let file_names: Vec<&str> = items
        .iter()
        .filter_map(|item| item["filename"].as_str())
        .collect();
    assert_eq!(file_names.len(), 2);
    assert!(
        file_names.iter().all(|name| name.len() <= 130),
        "{file_names:?}"
    );
    assert!(file_names[0].ends_with(".pdf"));
    // A media type that is not one goes into a data: URL as application/octet-stream.
    assert!(
        items[4]["file_data"]
            .as_str()
            .unwrap()
            .starts_with("data:application/octet-stream;base64,")
    );
}

/// A recorded content result, saved as a JSON fixture and replayed, comes back with the
/// same parts, and every API is sent the same.
#[test]
fn a_recorded_content_result_replays_with_the_same_parts() {
    let recorder = ExecutionRecorder::new();
    let executor = ToolExecutor::builder(registry())
        .text_limits(TextLimits::default().with_max_binary_bytes(1024))
        .observer(recorder.clone())
        .build();
    let calls = [
        ToolCall::new("r1", "mixed", "{}"),
        ToolCall::new("r2", "screenshot", "{}"),
        ToolCall::new("r3", "describe_weather", r#"{"city": "Paris"}"#),
    ];
    let originals = block_on(executor.dispatch_all(&calls));

    let fixture = serde_json::to_string(&recorder.recordings()).unwrap();
    let recordings: Vec<Recording> = serde_json::from_str(&fixture).unwrap();
    let mixed = recordings.iter().find(|r| r.call_id == "r1").unwrap();
    let RecordedOutcome::Content { output, content } = &mixed.outcome else {
        panic!("parts are recorded as content: {:?}", mixed.outcome);
    };
    assert_eq!(output.as_ref(), originals[0].output());
    assert_eq!(content.as_slice(), originals[0].content());

    let replayer = ToolExecutor::builder(Replay::new(recordings).registry_for(&registry()))
        .text_limits(TextLimits::default().with_max_binary_bytes(1024))
        .build();
    let replayed = block_on(replayer.dispatch_all(&calls));
    for (original, replayed) in originals.iter().zip(&replayed) {
        assert!(replayed.is_success(), "{replayed:?}");
        assert_eq!(replayed.output(), original.output());
        assert_eq!(replayed.content(), original.content());
        let (a, b) = (render(original), render(replayed));
        assert_eq!(a.anthropic, b.anthropic);
        assert_eq!(a.responses, b.responses);
        assert_eq!(a.chat, b.chat);
        assert_eq!(a.gemini, b.gemini);
        assert_eq!(a.mcp, b.mcp);
    }
}

/// A part's names, URIs, descriptions and media types are the tool's text too: the secrets of
/// the call are scrubbed from them, unsafe characters escaped, their length cut, and a media
/// type that is not `type/subtype` becomes `application/octet-stream`, before any rendering
/// sees them.
#[test]
fn a_parts_names_uris_and_media_types_are_settled_before_any_rendering() {
    let leaky = ToolSpec::builder("leaky_parts")
        .credential("api-key")
        .build()
        .unwrap();
    let mut registry = ToolRegistry::new();
    registry
        .register(returns(leaky, |ctx| {
            let key = ctx.credential("api-key")?.expose().to_owned();
            let long = "y".repeat(100_000);
            Ok(ToolOutput::from(
                ResourceLink::new(
                    format!("https://example.com/?key={key}&{long}"),
                    format!("report {key}\u{202e}"),
                )
                .with_description(format!("made with {key}"))
                .with_mime_type("text/csv\r\nX-Injected: 1"),
            )
            .with(Content::image(PNG, "image/png; name=\"a\u{0}b\""))
            .with(Content::audio(WAV, "audio/wav"))
            .with(Content::from(
                EmbeddedResource::text(format!("file:///{key}/notes.txt"), "fine")
                    .with_mime_type("text/plain; charset=utf-8"),
            )))
        }))
        .unwrap();
    let executor = ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with("api-key", SECRET))
        .build();
    let result = block_on(executor.dispatch(&ToolCall::new("m1", "leaky_parts", "{}")));
    assert!(result.is_success(), "{result:?}");
    let [
        Content::ResourceLink(link),
        Content::Image(image),
        Content::Audio(audio),
        Content::Resource(notes),
    ] = result.content()
    else {
        panic!("four parts: {:?}", result.content());
    };
    assert!(
        link.uri()
            .starts_with("https://example.com/?key=[redacted]&yyy"),
        "{}",
        link.uri()
    );
    assert!(link.uri().chars().count() <= 2_049, "{}", link.uri().len());
    assert!(link.uri().ends_with('…'));
    assert_eq!(link.name(), "report [redacted]\\u{202e}");
    assert_eq!(link.description(), Some("made with [redacted]"));
    assert_eq!(link.mime_type(), Some("application/octet-stream"));
    assert_eq!(image.mime_type(), "application/octet-stream");
    assert_eq!(audio.mime_type(), "audio/wav");
    assert_eq!(notes.uri(), "file:///[redacted]/notes.txt");
    assert_eq!(notes.mime_type(), Some("text/plain; charset=utf-8"));

    let r = render(&result);
    let renderings = [
        ("anthropic", r.anthropic),
        ("openai_responses", r.responses),
        ("openai_chat", Value::Array(r.chat)),
        ("gemini", r.gemini),
        ("mcp", mcp::result(&result, executor.registry())),
    ];
    for (api, rendering) in renderings {
        let text = rendering.to_string();
        assert!(!text.contains(SECRET), "{api} shows the secret");
        assert!(!text.contains("X-Injected"), "{api} keeps a bad media type");
        assert!(
            !text.contains('\u{202e}'),
            "{api} shows a raw bidi override"
        );
    }
}
