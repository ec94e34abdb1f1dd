//! The `round_trip` example: one agent step with each model API, on a scripted reply of two
//! calls. For each API its request declares both tools, and what it appends after the reply
//! carries the good call's output and the other call's request to retry, in that API's words.
//!
//! The example's code is compiled into this test, so what is checked here is what
//! `cargo run --example round_trip -- <api>` runs.

#[path = "../../examples/examples/round_trip.rs"]
#[allow(dead_code, unreachable_pub)]
mod example;

use example::{PROVIDERS, executor, step};

#[test]
fn each_api_declares_the_tools_and_answers_both_calls() {
    let executor = executor().expect("the example's tools register");
    for provider in PROVIDERS {
        let (tools, appended) = step(provider, &executor).expect(provider);
        assert_eq!(tools, ["fetch_weather", "convert_currency"], "{provider}");
        let text = serde_json::to_string(&appended).unwrap();
        // The weather, and the currency tool's request to correct the call.
        assert!(text.contains("71.6"), "{provider}: {text}");
        assert!(
            text.contains("no exchange rate for 'XYZ'; use one of EUR, USD, GBP"),
            "{provider}: {text}"
        );
    }
}

#[test]
fn an_unknown_api_is_an_error() {
    let executor = executor().expect("the example's tools register");
    assert!(step("no-such-api", &executor).is_err());
}
