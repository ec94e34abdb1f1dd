//! Requests refused at the door: hostile Host and Origin headers, bodies over the limit, capped and expiring sessions, keys given twice.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_host_and_origin_headers_are_refused_with_403() {
    let (address, _stop, _task) = serve(server(Arc::default())).await;
    let cases: [(&[(&str, &str)], u16); 8] = [
        (
            &[("host", "127.0.0.1"), ("origin", "http://evil.example")],
            403,
        ),
        (&[("host", "127.0.0.1"), ("origin", "null")], 403),
        (&[("host", "evil.example")], 403),
        (
            &[("host", "evil.example"), ("origin", "http://evil.example")],
            403,
        ),
        (
            &[
                ("host", "127.0.0.1"),
                ("origin", "http://localhost.evil.example:80"),
            ],
            403,
        ),
        (&[], 403),
        (&[("host", "127.0.0.1")], 200),
        (
            &[
                ("host", "localhost:1234"),
                ("origin", "http://localhost:5173"),
            ],
            200,
        ),
    ];
    for (headers, status) in cases {
        let answer = request(&address, "POST", headers, INITIALIZE).await;
        assert_eq!(answer.status, status, "{headers:?}: {answer:?}");
        if status == 403 {
            assert!(answer.header("mcp-session-id").is_none());
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn configured_origins_replace_the_loopback_ones() {
    let server = server(Arc::default())
        .with_allowed_hosts(["127.0.0.1", "mcp.example.com"])
        .with_allowed_origins(["https://app.example.com"]);
    let (address, _stop, _task) = serve(server).await;
    let ok = request(
        &address,
        "POST",
        &[
            ("host", "mcp.example.com"),
            ("origin", "https://app.example.com"),
        ],
        INITIALIZE,
    )
    .await;
    assert_eq!(ok.status, 200, "{ok:?}");
    let refused = request(
        &address,
        "POST",
        &[("host", "127.0.0.1"), ("origin", "http://localhost:3000")],
        INITIALIZE,
    )
    .await;
    assert_eq!(refused.status, 403);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_over_the_limit_is_refused_with_413() {
    let (address, _stop, _task) = serve(server(Arc::default()).with_max_body_bytes(1024)).await;
    let id = session(&address, &[]).await.unwrap();
    let big = format!(r#"{{"pad":"{}"}}"#, "x".repeat(2048));
    let answer = call(&address, &id, "whoami", &big, &[]).await;
    assert_eq!(answer.status, 413, "{answer:?}");
    let answer = call(&address, &id, "whoami", "{}", &[]).await;
    assert_eq!(answer.status, 200, "{answer:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_are_capped_and_expire_when_idle() {
    let server = server(Arc::default())
        .with_max_sessions(2)
        .with_session_idle_timeout(Duration::from_millis(300));
    let (address, _stop, _task) = serve(server).await;
    let first = session(&address, &[]).await.unwrap();
    let _second = session(&address, &[]).await.unwrap();
    let full = session(&address, &[]).await.unwrap_err();
    assert_eq!(full.status, 503, "{full:?}");
    assert!(full.header("retry-after").is_some());
    let message = full.message();
    assert!(
        message["error"]["message"]
            .as_str()
            .unwrap()
            .contains("maximum of 2 sessions")
    );

    // A session in use stays; once idle past the timeout, every session goes.
    let answer = call(&address, &first, "whoami", "{}", &[]).await;
    assert_eq!(answer.status, 200);
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let expired = call(&address, &first, "whoami", "{}", &[]).await;
    assert_eq!(expired.status, 404, "{expired:?}");
    let third = session(&address, &[]).await;
    assert!(third.is_ok(), "{third:?}");
    let fourth = session(&address, &[]).await;
    assert!(fourth.is_ok(), "{fourth:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_given_twice_in_a_calls_arguments_is_an_input_error_over_http() {
    let (address, _stop, _task) = serve(server(Arc::default())).await;
    let id = session(&address, &[]).await.unwrap();
    let answer = call(
        &address,
        &id,
        "whoami",
        r#"{"city": "Paris", "city": "Lyon"}"#,
        &[],
    )
    .await;
    let result = &answer.message()["result"];
    assert_eq!(result["isError"], true, "{answer:?}");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("city"), "{text}");
    assert!(text.contains("Duplicate key: 'city'"), "{text}");
    // Once each, the same call succeeds.
    let answer = call(&address, &id, "whoami", r#"{"city": "Paris"}"#, &[]).await;
    assert_eq!(answer.message()["result"]["isError"], false, "{answer:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_given_twice_in_a_calls_arguments_is_an_input_error_over_stdio() {
    let mut child = tokio::process::Command::new(example_server())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the example server starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let messages = [
        INITIALIZE.to_owned(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fetch_weather","arguments":{"city":"Paris","city":"Lyon"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fetch_weather","arguments":{"city":"Lyon"}}}"#.to_owned(),
    ];
    for message in messages {
        stdin
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }
    let mut results = std::collections::HashMap::new();
    while results.len() < 2 {
        let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
            .await
            .expect("an answer in time")
            .unwrap()
            .expect("a line");
        let message: Value = serde_json::from_str(&line).unwrap();
        if let Some(id @ (1 | 2)) = message["id"].as_i64() {
            results.insert(id, message["result"].clone());
        }
    }
    assert_eq!(results[&1]["isError"], true, "{:?}", results[&1]);
    let text = results[&1]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("'city'"), "{text}");
    assert_eq!(results[&2]["isError"], false, "{:?}", results[&2]);
}
