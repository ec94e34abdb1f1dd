//! Bearer tokens: checked, and their principal reaching tools and policies.

use super::*;

pub(super) fn authenticate(token: &str) -> Result<Principal, Unauthorized> {
    match token {
        "alice" => Ok(Principal::new("alice").with_scopes(["tools"])),
        "root" => Ok(Principal::new("root").with_scopes(["tools", "admin"])),
        "reader" => Err(Unauthorized::insufficient_scope("tools")),
        _ => Err(Unauthorized::invalid_token().with_description("unknown \"token\"\r\n")),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bearer_tokens_are_checked_and_their_principal_reaches_tools_and_policies() {
    let metadata = ProtectedResource::new("http://127.0.0.1/mcp")
        .authorization_server("https://auth.example.com")
        .scopes(["tools"]);
    let server = server(Arc::default())
        .with_auth(authenticate, metadata)
        .with_access(|principal, spec| {
            spec.name() != "admin_only" || principal.is_some_and(|p| p.has_scope("admin"))
        });
    let (address, _stop, _task) = serve(server).await;

    // The metadata, without a token; anything else needs one.
    let answer = request(&address, "GET", &[("host", "127.0.0.1")], "").await;
    assert_eq!(answer.status, 401);
    let path = "/.well-known/oauth-protected-resource/mcp";
    let metadata = request_at(&address, "GET", path, &[("host", "127.0.0.1")], "").await;
    assert_eq!(metadata.status, 200, "{metadata:?}");
    assert_eq!(metadata.header("content-type"), Some("application/json"));
    let document: Value = serde_json::from_str(&metadata.body).unwrap();
    assert_eq!(document["resource"], "http://127.0.0.1/mcp");
    assert_eq!(
        document["authorization_servers"],
        json!(["https://auth.example.com"])
    );

    // No token, a bad one, one without the scope.
    let none = session(&address, &[]).await.unwrap_err();
    assert_eq!(none.status, 401);
    let challenge = none.header("www-authenticate").unwrap();
    assert!(challenge.starts_with("Bearer "), "{challenge}");
    assert!(
        challenge.contains(
            r#"resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp""#
        ),
        "{challenge}"
    );
    let bad = session(&address, &[("authorization", "Bearer forged")])
        .await
        .unwrap_err();
    assert_eq!(bad.status, 401);
    let challenge = bad.header("www-authenticate").unwrap();
    assert!(
        challenge.contains(r#"error="invalid_token""#),
        "{challenge}"
    );
    assert!(
        challenge.contains(r#"error_description="unknown token""#),
        "{challenge}"
    );
    assert!(!challenge.contains("forged"));
    let reader = session(&address, &[("authorization", "Bearer reader")])
        .await
        .unwrap_err();
    assert_eq!(reader.status, 403);
    assert!(
        reader
            .header("www-authenticate")
            .unwrap()
            .contains(r#"error="insufficient_scope""#)
    );

    // Alice: her name reaches the tool; `admin_only` is neither listed nor callable; the
    // approval policy denies her the guarded tool.
    let auth = [("authorization", "Bearer alice")];
    let id = session(&address, &auth).await.unwrap();
    let answer = call(&address, &id, "whoami", "{}", &auth).await;
    assert_eq!(answer.output()["subject"], "alice", "{answer:?}");
    let listed = request(
        &address,
        "POST",
        &[
            ("host", "127.0.0.1"),
            ("mcp-session-id", &id),
            ("mcp-protocol-version", "2025-06-18"),
            auth[0],
        ],
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#,
    )
    .await
    .message();
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"whoami") && !names.contains(&"admin_only"),
        "{names:?}"
    );
    let hidden = call(&address, &id, "admin_only", "{}", &auth)
        .await
        .message();
    assert!(
        hidden["error"]["message"]
            .as_str()
            .unwrap()
            .contains("unknown tool"),
        "{hidden}"
    );
    let denied = call(&address, &id, "guarded", "{}", &auth).await.message();
    assert_eq!(denied["result"]["isError"], true, "{denied}");

    // Root may do both.
    let auth = [("authorization", "Bearer root")];
    let id = session(&address, &auth).await.unwrap();
    let answer = call(&address, &id, "admin_only", "{}", &auth).await;
    assert_eq!(answer.output()["subject"], "root", "{answer:?}");
    let allowed = call(&address, &id, "guarded", "{}", &auth).await.message();
    assert_eq!(allowed["result"]["isError"], false, "{allowed}");
    // A request of Alice's session with another token is refused before it reaches it.
    let other = call(
        &address,
        &id,
        "whoami",
        "{}",
        &[("authorization", "Bearer forged")],
    )
    .await;
    assert_eq!(other.status, 401);
}
