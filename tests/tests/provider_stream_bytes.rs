//! Every API's `CallStream::push_bytes`: an HTTP body read in whatever pieces a client yields
//! gives the calls of the events it carries. Server-sent events by the WHATWG rules (line
//! ends, comments, fields, multi-line data, a byte-order mark), characters split between
//! pieces, bounded lines and events, and Gemini's JSON array. (A part of `provider_stream`,
//! for its helpers.)

use agentkit_core::provider::{BodyErrorKind, DEFAULT_MAX_EVENT_BYTES};

use super::*;
use crate::provider_fixtures::streams::Call;

/// The fixture's calls, with text that is not ASCII in every call's arguments: characters of
/// two, three and four bytes, for splits to fall inside.
fn wide_calls() -> Vec<Call> {
    let mut calls = streams::calls();
    calls[0].args = json!({"city": "Zürich", "units": "métrique"}).to_string();
    calls[1].args = json!({"city": "東京 {north} \"old\\town\" 🌧"}).to_string();
    calls[2].args = json!({"cities": ["Kraków", "Ōsaka"], "days": 4, "note": "🚆→✈"}).to_string();
    calls
}

/// The recorded-shaped events of `api` with [`wide_calls`], and the calls of the finished
/// reply.
fn recorded(api: Api) -> (Vec<Value>, Vec<ToolCall>) {
    let calls = wide_calls();
    let cuts = [vec![3, 9, 17], vec![5, 12, 20, 26], vec![1, 30]];
    let streamed = match api {
        Api::Chat => streams::openai_chat(&calls, &cuts, &[1, 0, 1, 1, 0, 2, 0, 1]),
        Api::Responses => streams::openai_responses(&calls, &cuts, &[1, 1, 0, 1]),
        Api::Anthropic => streams::anthropic(&calls, &cuts, &[]),
        Api::Gemini => streams::vertex(&calls, &cuts),
    };
    let expected = calls_of(api, &streamed.finished);
    assert_eq!(expected.len(), 3);
    (streamed.events, expected)
}

/// How a body writes its events.
#[derive(Debug, Clone, Copy)]
struct Style {
    /// `\n`, `\r\n` or `\r`.
    newline: &'static str,
    /// Each event's JSON over several `data:` lines (pretty-printed: its line breaks fall
    /// between tokens, so the joined lines are the same JSON).
    multiline: bool,
    /// A byte-order mark, comments, `id:` and `retry:` lines, fields without a colon or
    /// without the space after it.
    noise: bool,
}

const STYLES: [Style; 4] = [
    Style {
        newline: "\n",
        multiline: false,
        noise: false,
    },
    Style {
        newline: "\r\n",
        multiline: true,
        noise: true,
    },
    Style {
        newline: "\r",
        multiline: true,
        noise: false,
    },
    Style {
        newline: "\r\n",
        multiline: false,
        noise: true,
    },
];

/// The server-sent event body of `events`, as `api` sends it, written in `style`.
fn sse_body(api: Api, events: &[Value], style: Style) -> Vec<u8> {
    let nl = style.newline;
    let mut body = String::new();
    if style.noise {
        body.push_str(&format!("\u{FEFF}: keep-alive{nl}retry: 3000{nl}{nl}"));
    }
    for (n, event) in events.iter().enumerate() {
        if let Some(kind) = event["type"].as_str() {
            body.push_str(&format!("event: {kind}{nl}"));
        }
        if style.noise {
            body.push_str(&format!("id: {n}{nl}: a comment: with colons{nl}data{nl}"));
        }
        let text = if style.multiline {
            serde_json::to_string_pretty(event).unwrap()
        } else {
            event.to_string()
        };
        for (k, line) in text.lines().enumerate() {
            // One space after the colon is dropped; none is fine too.
            let space = if style.noise && k % 2 == 1 { "" } else { " " };
            body.push_str(&format!("data:{space}{line}{nl}"));
        }
        body.push_str(nl);
    }
    if api == Api::Chat {
        body.push_str(&format!("data: [DONE]{nl}{nl}"));
    }
    body.into_bytes()
}

/// Gemini's body without `alt=sse`: the chunks as a JSON array, pretty-printed.
fn json_body(events: &[Value]) -> Vec<u8> {
    serde_json::to_vec_pretty(&Value::Array(events.to_vec())).unwrap()
}

/// The calls handed out while feeding `pieces`, and `finish`.
fn feed(api: Api, pieces: &[&[u8]]) -> (Vec<ToolCall>, Result<Vec<ToolCall>, StreamError>) {
    let mut acc = Acc::new(api);
    let mut handed = Vec::new();
    for piece in pieces {
        match acc.push_bytes(piece) {
            Ok(calls) => handed.extend(calls),
            Err(error) => return (handed, Err(error)),
        }
    }
    (handed, acc.finish())
}

/// `body` cut at `at` (positions, in any order, repeats allowed).
fn split<'b>(body: &'b [u8], at: &[usize]) -> Vec<&'b [u8]> {
    let mut at: Vec<usize> = at.iter().map(|cut| cut % (body.len() + 1)).collect();
    at.extend([0, body.len()]);
    at.sort_unstable();
    // Repeats stay: an empty piece is a piece a client may yield.
    at.windows(2).map(|w| &body[w[0]..w[1]]).collect()
}

/// The positions where a split is hardest: inside a multi-byte character, between a CR and
/// its LF, inside the byte-order mark.
fn hard_places(body: &[u8]) -> Vec<usize> {
    (1..body.len())
        .filter(|&at| {
            let inside_char = body[at] & 0b1100_0000 == 0b1000_0000;
            let inside_crlf = body[at - 1] == b'\r' && body[at] == b'\n';
            inside_char || inside_crlf
        })
        .collect()
}

/// Every body of `api`: each SSE style, and for Gemini its JSON array.
fn bodies(api: Api, events: &[Value]) -> Vec<Vec<u8>> {
    let mut bodies: Vec<Vec<u8>> = STYLES
        .iter()
        .map(|style| sse_body(api, events, *style))
        .collect();
    if api == Api::Gemini {
        bodies.push(json_body(events));
    }
    bodies
}

#[test]
fn a_whole_body_gives_the_calls_of_the_finished_reply() {
    for api in APIS {
        let (events, expected) = recorded(api);
        for body in bodies(api, &events) {
            let (handed, finished) = feed(api, &[&body]);
            let shown = String::from_utf8_lossy(&body[..80]).into_owned();
            assert_eq!(finished.unwrap(), expected, "{api:?}: {shown}");
            assert_eq!(handed, expected, "{api:?}: {shown}");
        }
    }
}

#[test]
fn a_body_byte_by_byte_gives_the_same_calls_and_no_replacement_character() {
    for api in APIS {
        let (events, expected) = recorded(api);
        for body in bodies(api, &events) {
            assert!(!hard_places(&body).is_empty());
            let pieces: Vec<&[u8]> = body.chunks(1).collect();
            let (handed, finished) = feed(api, &pieces);
            assert_eq!(finished.unwrap(), expected, "{api:?}");
            assert_eq!(handed, expected, "{api:?}");
            let text = format!("{handed:?}");
            assert!(!text.contains('\u{FFFD}'), "{api:?}: {text}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Any split of a recorded body into pieces, including splits inside multi-byte
    /// characters, inside CRLF and inside the byte-order mark, and empty pieces, gives the
    /// calls feeding it whole gives, handed out as they complete.
    #[test]
    fn any_split_of_a_body_gives_the_same_calls(
        api in proptest::sample::select(APIS.to_vec()),
        form in 0usize..5,
        cuts in proptest::collection::vec(any::<usize>(), 0..40),
        hard in proptest::collection::vec(any::<usize>(), 0..12),
    ) {
        let (events, expected) = recorded(api);
        let bodies = bodies(api, &events);
        let body = &bodies[form % bodies.len()];
        let places = hard_places(body);
        let mut at = cuts;
        at.extend(hard.iter().map(|k| places[k % places.len()]));
        let (handed, finished) = feed(api, &split(body, &at));
        let (whole_handed, whole) = feed(api, &[body]);
        prop_assert_eq!(&handed, &whole_handed);
        prop_assert_eq!(finished.unwrap(), whole.unwrap());
        prop_assert_eq!(handed, expected);
    }
}

#[test]
fn a_character_split_at_each_of_its_bytes_is_joined() {
    // `é` (2 bytes), `東` (3) and `🌧` (4) in a call's arguments, the body cut at every byte.
    let body = "data: {\"choices\": [{\"index\": 0, \"delta\": {\"tool_calls\": [{\"index\": 0, \
                \"id\": \"c\", \"type\": \"function\", \"function\": {\"name\": \"t\", \
                \"arguments\": \"{\\\"q\\\": \\\"café 東 🌧\\\"}\"}}]}, \"finish_reason\": \"tool_calls\"}]}\n\n";
    for at in 0..=body.len() {
        let (handed, finished) = feed(Api::Chat, &[&body.as_bytes()[..at], &body.as_bytes()[at..]]);
        assert_eq!(
            handed[0].arguments().as_text(),
            Some("{\"q\": \"café 東 🌧\"}"),
            "{at}"
        );
        assert_eq!(finished.unwrap(), handed);
    }
}

#[test]
fn sse_framing_follows_the_standard_in_every_api() {
    for api in APIS {
        let (events, expected) = recorded(api);
        // A field without a colon is a field with an empty value: `data` alone adds an
        // empty line to the event's data, which is still the same JSON.
        let mut body = Vec::new();
        for event in &events {
            body.extend(format!("data\ndata: {event}\nid\nevent\nretry: x\n\n").bytes());
        }
        if api == Api::Chat {
            body.extend(b"data: [DONE]\n\n");
        }
        let (handed, finished) = feed(api, &[&body]);
        assert_eq!(finished.unwrap(), expected, "{api:?}");
        assert_eq!(handed, expected, "{api:?}");

        // A line with a leading space is another field (` data`), not data: the events are
        // skipped, and the stream is cut.
        let body: Vec<u8> = events
            .iter()
            .flat_map(|event| format!(" data: {event}\n\n").into_bytes())
            .collect();
        let (handed, finished) = feed(api, &[&body]);
        assert!(handed.is_empty(), "{api:?}");
        assert!(matches!(finished, Err(StreamError::Cut(_))), "{api:?}");

        // The last event without its blank line is not dispatched (WHATWG): the terminal
        // event is lost, and the stream reads as cut, with every call before it.
        let last = events
            .iter()
            .rposition(|event| props::is_terminal(api, event))
            .unwrap();
        let mut body = String::new();
        for event in &events[..last] {
            body.push_str(&format!("data: {event}\n\n"));
        }
        body.push_str(&format!("data: {}\n", events[last]));
        let (handed, finished) = feed(api, &[body.as_bytes()]);
        let Err(StreamError::Cut(cut)) = finished else {
            panic!("{api:?}: {finished:?}")
        };
        assert_eq!(cut.completed(), expected, "{api:?}");
        assert_eq!(handed, expected, "{api:?}");
    }
}

#[test]
fn bytes_that_are_not_utf8_are_a_body_error() {
    for api in APIS {
        let (events, _) = recorded(api);
        let mut body = sse_body(api, &events, STYLES[0]);
        // A lone continuation byte inside the first event's data.
        let at = body.iter().position(|&b| b == b'{').unwrap() + 1;
        body.insert(at, 0x80);
        let (_, finished) = feed(api, &[&body]);
        let Err(StreamError::Body(error)) = finished else {
            panic!("{api:?}: {finished:?}")
        };
        assert_eq!(error.kind(), &BodyErrorKind::NotUtf8, "{api:?}");
    }
    let mut body = json_body(&recorded(Api::Gemini).0);
    body.insert(10, 0xff);
    let (_, finished) = feed(Api::Gemini, &[&body]);
    assert!(
        matches!(finished, Err(StreamError::Body(_))),
        "{finished:?}"
    );
}

#[test]
fn lines_events_and_chunks_past_the_limit_are_refused_as_they_grow() {
    let limit = 4096;
    let with_limit = |api: Api| match api {
        Api::Chat => Acc::Chat(openai_chat::CallStream::new().with_max_event_bytes(limit)),
        Api::Responses => {
            Acc::Responses(openai_responses::CallStream::new().with_max_event_bytes(limit))
        }
        Api::Anthropic => Acc::Anthropic(anthropic::CallStream::new().with_max_event_bytes(limit)),
        Api::Gemini => Acc::Gemini(gemini::CallStream::new().with_max_event_bytes(limit)),
    };
    let too_long = |error: StreamError| matches!(&error, StreamError::Body(body) if body.kind() == &BodyErrorKind::TooLong { limit });
    let line = "x".repeat(1000);
    for api in APIS {
        // One line, arriving in pieces that never end it: refused once past the limit.
        let mut acc = with_limit(api);
        let mut fed = 0;
        let error = loop {
            match acc.push_bytes(format!("data: {line}").as_bytes()) {
                Ok(_) => fed += 1,
                Err(error) => break error,
            }
            assert!(fed < 10, "{api:?}: never refused");
        };
        assert!(too_long(error), "{api:?}");
        // Short lines making one event past the limit.
        let mut acc = with_limit(api);
        let lines = format!("data: {line}\n").repeat(5);
        assert!(
            too_long(acc.push_bytes(lines.as_bytes()).unwrap_err()),
            "{api:?}"
        );
        // Whitespace only, before the body's form is known.
        let mut acc = with_limit(api);
        assert!(
            too_long(acc.push_bytes(&[b' '; 5000]).unwrap_err()),
            "{api:?}"
        );
        // The error stays.
        assert!(too_long(acc.finish().unwrap_err()), "{api:?}");
    }
    // A JSON chunk of Gemini's array.
    let mut acc = with_limit(Api::Gemini);
    acc.push_bytes(b"[{\"candidates\": [").unwrap();
    let error = loop {
        if let Err(error) = acc.push_bytes(format!("\"{line}\", ").as_bytes()) {
            break error;
        }
    };
    assert!(too_long(error));
    assert_eq!(DEFAULT_MAX_EVENT_BYTES, 16 * 1024 * 1024);
}

#[test]
fn gemini_reads_its_json_array_as_it_arrives() {
    let (events, expected) = recorded(Api::Gemini);
    let body = json_body(&events);
    let mut stream = gemini::CallStream::new();
    let mut handed = Vec::new();
    let mut first_at = None;
    for (n, piece) in body.chunks(16).enumerate() {
        let calls = stream.push_bytes(piece).unwrap();
        if !calls.is_empty() && first_at.is_none() {
            first_at = Some(n);
        }
        handed.extend(calls);
    }
    assert_eq!(handed, expected);
    assert!(
        first_at.unwrap() * 2 < body.len() / 16,
        "the first call came late"
    );
    assert_eq!(stream.finish().unwrap(), expected);

    // An error chunk in the array (a 503 mid-stream) ends the stream with the provider's
    // code, whatever the split.
    let mut events = recorded(Api::Gemini).0;
    events.insert(
        3,
        json!({"error": {"code": 503, "message": "The model is overloaded.",
                                      "status": "UNAVAILABLE"}}),
    );
    for size in [1, 5, 64] {
        let body = json_body(&events);
        let (_, finished) = feed(Api::Gemini, &body.chunks(size).collect::<Vec<_>>());
        let Err(StreamError::Provider(error)) = finished else {
            panic!("{finished:?}")
        };
        assert_eq!(error.code(), "UNAVAILABLE");
    }

    // What is not an array of chunks is refused, not skipped.
    let bad: [&[u8]; 4] = [
        b"[1]",
        b"[{\"usageMetadata\": {}} {\"usageMetadata\": {}}]",
        b"[{\"candidates\": []}] x",
        b"[,{}]",
    ];
    for bad in bad {
        let mut stream = gemini::CallStream::new();
        let error = stream.push_bytes(bad).unwrap_err();
        let StreamError::Body(error) = error else {
            panic!("{error}")
        };
        assert!(
            matches!(error.kind(), BodyErrorKind::NotJson { .. }),
            "{error}"
        );
    }
}
