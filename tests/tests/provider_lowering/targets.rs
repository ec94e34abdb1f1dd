//! The corpus and generated schemas lowered for every target: the rules hold, strict modes
//! are left only where they must be and say why, validation stays exact, and the hostile
//! schemas stay bounded.

use super::rules::*;
use super::*;

#[test]
fn every_target_s_rules_hold_for_every_declaration_of_the_corpus() {
    for spec in specs() {
        let original = match spec.input_json() {
            Some(schema) => schema.as_value().clone(),
            None => provider::lower(&spec, Target::Mcp).into_schema(),
        };
        for target in TARGETS {
            let lowered = provider::lower(&spec, target);
            check(&original, target, &lowered);
        }
    }
}

/// What each corpus schema gets in each strict mode: only the schemas a strict mode cannot
/// take at all leave it, each with its reason.
#[test]
fn strict_modes_are_left_only_by_the_schemas_they_cannot_take() {
    let strict = |target| -> Vec<(&str, bool)> {
        corpus()
            .into_iter()
            .map(|(name, schema)| (name, lower_json_schema(&schema, target).is_strict()))
            .collect()
    };
    let openai: Vec<&str> = strict(Target::OpenAiStrict)
        .into_iter()
        .filter(|(_, s)| !s)
        .map(|(n, _)| n)
        .collect();
    assert_eq!(
        openai,
        [
            "zod type arrays, record, discriminated union",
            "patternProperties and propertyNames",
            "formats, patterns, bounds, const, oneOf, dependentRequired",
            "a root discriminated union",
            "free-form values",
        ]
    );
    let anthropic: Vec<&str> = strict(Target::AnthropicStrict)
        .into_iter()
        .filter(|(_, s)| !s)
        .map(|(n, _)| n)
        .collect();
    assert_eq!(
        anthropic,
        [
            "zod type arrays, record, discriminated union",
            "recursive tree",
            "root recursion",
            "patternProperties and propertyNames",
            "formats, patterns, bounds, const, oneOf, dependentRequired",
            "free-form values",
        ]
    );
}

#[test]
fn a_schema_strict_mode_cannot_take_is_declared_without_strict_and_says_why() {
    let spec = ToolSpec::builder("tag")
        .input_json_schema(json!({
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            },
            "required": ["id"],
        }))
        .build()
        .unwrap();
    let lowered = provider::lower(&spec, Target::OpenAiStrict);
    assert_eq!(lowered.target(), Target::OpenAi);
    assert_eq!(
        lowered.not_strict_because(),
        Some(
            "OpenAI's strict mode cannot declare this schema: '/properties/labels' takes keys it does not name (a map)"
        )
    );
    for declared in [
        openai_chat::strict_tools([&spec])[0]["function"].clone(),
        openai_responses::strict_tools([&spec])[0].clone(),
    ] {
        assert_eq!(declared["strict"], false);
        assert_eq!(
            &declared["parameters"],
            spec.input_json().unwrap().as_value()
        );
    }
    let declared = &anthropic::strict_tools([&spec])[0];
    assert!(declared.get("strict").is_none());
    assert_eq!(
        &declared["input_schema"],
        spec.input_json().unwrap().as_value()
    );
    assert!(
        provider::lower(&spec, Target::AnthropicStrict)
            .not_strict_because()
            .unwrap()
            .contains("a map")
    );
}

/// What a model following a strict declaration sends (`null` for every optional property it
/// leaves out) passes the executor's checks, and a call the whole schema refuses is still
/// refused though the declaration only stated the keyword.
#[test]
fn validation_stays_exact_whatever_the_declaration_loosened() {
    let spec = ToolSpec::builder("search")
        .input_json_schema(corpus()[0].1.clone())
        .build()
        .unwrap();
    let lowered = provider::lower(&spec, Target::OpenAiStrict);
    assert!(lowered.is_strict());
    assert!(lowered.loosened().iter().any(|l| l.keyword == "minLength"));
    assert!(
        lowered.schema()["properties"]["query"]["description"]
            .as_str()
            .unwrap()
            .contains("At least 1 character long.")
    );
    let schema = spec.input_json().unwrap();
    let mut strict_call = json!({"query": "rust", "limit": null, "sort": null, "filter": null,
                                 "owners": [{"name": "Ann", "email": null}]});
    assert_eq!(schema.validate(&mut strict_call), []);
    let mut too_short = json!({"query": ""});
    assert_eq!(schema.validate(&mut too_short).len(), 1);

    // Inside a union's variant too: the optional property the model sends as `null`.
    let spec = ToolSpec::builder("draw")
        .input_json_schema(json!({"type": "object", "properties": {"shape": {"anyOf": [
            {"type": "object", "properties": {"r": {"type": "number"}, "label": {"type": "string"}},
             "required": ["r"]},
            {"type": "string"},
        ]}}, "required": ["shape"]}))
        .build()
        .unwrap();
    let lowered = provider::lower(&spec, Target::OpenAiStrict);
    assert!(lowered.is_strict());
    let variant = &lowered.schema()["properties"]["shape"]["anyOf"][0];
    assert_eq!(
        variant["properties"]["label"]["type"],
        json!(["string", "null"])
    );
    let mut strict_call = json!({"shape": {"r": 1.5, "label": null}});
    assert_eq!(spec.input_json().unwrap().validate(&mut strict_call), []);
}

#[test]
fn the_openapi_subset_writes_references_out_and_recursion_to_a_bounded_depth() {
    let (_, tree) = corpus().swap_remove(3);
    let lowered = lower_json_schema(&tree, Target::GeminiOpenApi);
    assert!(!lowered.schema().to_string().contains("$ref"));
    let root = &lowered.schema()["properties"]["root"];
    assert_eq!(root["properties"]["value"]["type"], "INTEGER");
    let child = &root["properties"]["children"]["items"];
    assert_eq!(child["properties"]["value"]["type"], "INTEGER");
    // Past the second level written out, the type alone, which says so.
    let third = &child["properties"]["children"]["items"];
    assert_eq!(third["type"], "OBJECT");
    assert!(third.get("properties").is_none());
    assert!(
        third["description"]
            .as_str()
            .unwrap()
            .contains("nested further")
    );
    assert!(lowered.loosened().iter().any(|l| l.keyword == "$ref"));
}

#[test]
fn declarations_use_the_lowering_of_their_target() {
    for spec in specs() {
        let pairs = [
            (
                openai_chat::strict_tools([&spec])[0]["function"]["parameters"].clone(),
                Target::OpenAiStrict,
            ),
            (
                openai_chat::tools([&spec])[0]["function"]["parameters"].clone(),
                Target::OpenAi,
            ),
            (
                openai_responses::strict_tools([&spec])[0]["parameters"].clone(),
                Target::OpenAiStrict,
            ),
            (
                anthropic::strict_tools([&spec])[0]["input_schema"].clone(),
                Target::AnthropicStrict,
            ),
            (
                anthropic::tools([&spec])[0]["input_schema"].clone(),
                Target::Anthropic,
            ),
            (
                gemini::tools([&spec])[0]["functionDeclarations"][0]["parametersJsonSchema"]
                    .clone(),
                Target::GeminiJsonSchema,
            ),
            (
                gemini::openapi_tools([&spec])[0]["functionDeclarations"][0]["parameters"].clone(),
                Target::GeminiOpenApi,
            ),
            (mcp::tool(&spec)["inputSchema"].clone(), Target::Mcp),
        ];
        for (declared, target) in pairs {
            assert_eq!(
                &declared,
                provider::lower(&spec, target).schema(),
                "{target:?}"
            );
        }
        let strict = provider::lower(&spec, Target::OpenAiStrict).is_strict();
        assert_eq!(
            openai_chat::strict_tools([&spec])[0]["function"]["strict"],
            strict
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_target_s_rules_hold_for_generated_schemas(schema in generated()) {
        // Lowering meets only schemas a tool could be built with.
        prop_assume!(JsonSchema::new(schema.clone()).is_ok());
        for target in TARGETS {
            let lowered = lower_json_schema(&schema, target);
            check(&schema, target, &lowered);
        }
    }
}

/// Strict tool use's limits on a request: the tools past them go without strict, each with
/// the reason, and the declarations say the same.
#[test]
fn anthropic_s_request_limits_send_the_tools_past_them_without_strict() {
    let optional = |n: usize| {
        ToolSpec::builder(format!("t{n}"))
            .input_json_schema(json!({"type": "object", "properties": {
                "a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"},
            }}))
            .build()
            .unwrap()
    };
    // Three optional parameters each: eight tools take the 24.
    let specs: Vec<ToolSpec> = (0..10).map(optional).collect();
    let fallbacks = anthropic::not_strict(specs.iter());
    let names: Vec<&str> = fallbacks.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["t8", "t9"]);
    assert!(
        fallbacks[0].1.contains("24 optional parameters"),
        "{}",
        fallbacks[0].1
    );
    let declared = anthropic::strict_tools(specs.iter());
    for (index, tool) in declared.as_array().unwrap().iter().enumerate() {
        assert_eq!(tool.get("strict").is_some(), index < 8, "{tool}");
    }
    // Tools without parameters: twenty are strict.
    let plain: Vec<ToolSpec> = (0..22)
        .map(|n| ToolSpec::builder(format!("p{n}")).build().unwrap())
        .collect();
    let fallbacks = anthropic::not_strict(plain.iter());
    assert_eq!(fallbacks.len(), 2);
    assert!(fallbacks[0].1.contains("20 strict tools"));
    // Unions: pydantic's `Optional`s, each a union and not required.
    let unions = ToolSpec::builder("u")
        .input_json_schema(json!({"type": "object", "properties": {
            "a": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "b": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "c": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "d": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "e": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        }, "required": ["a", "b", "c", "d", "e"]}))
        .build()
        .unwrap();
    let fallbacks = anthropic::not_strict([&unions, &unions, &unions, &unions]);
    assert_eq!(fallbacks.len(), 1);
    assert!(fallbacks[0].1.contains("16 union parameters"));
}

/// Hostile schemas lower to a bounded declaration: many properties, deep nesting, and
/// references that would multiply when written out.
#[test]
fn hostile_schemas_lower_to_bounded_declarations() {
    let wide: Map<String, Value> = (0..6_000)
        .map(|n| (format!("p{n}"), json!({"type": "string", "minLength": 1})))
        .collect();
    let wide = json!({"type": "object", "properties": wide});
    for target in TARGETS {
        let lowered = lower_json_schema(&wide, target);
        let declared = lowered.schema()["properties"].as_object().unwrap().len();
        assert_eq!(declared, 6_000, "{target:?}");
    }
    // OpenAI's limit of 5,000 properties.
    assert!(
        lower_json_schema(&wide, Target::OpenAiStrict)
            .not_strict_because()
            .unwrap()
            .contains("6000 properties")
    );

    let mut deep = json!({"type": "string"});
    for _ in 0..120 {
        deep = json!({"type": "object", "properties": {"next": deep}, "required": ["next"]});
    }
    for target in TARGETS {
        let lowered = lower_json_schema(&deep, target);
        assert!(lowered.schema().to_string().len() < 1 << 20, "{target:?}");
    }
    assert!(!lower_json_schema(&deep, Target::OpenAiStrict).is_strict());

    // Each level refers to the next twice: 2^30 schemas written out in full.
    let mut defs = Map::new();
    for level in 0..30 {
        defs.insert(
            format!("L{level}"),
            json!({"type": "object", "properties": {
                "left": {"$ref": format!("#/$defs/L{}", level + 1)},
                "right": {"$ref": format!("#/$defs/L{}", level + 1)},
            }}),
        );
    }
    defs.insert("L30".into(), json!({"type": "string"}));
    let shared =
        json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/L0"}}, "$defs": defs});
    let lowered = lower_json_schema(&shared, Target::GeminiOpenApi);
    assert!(lowered.schema().to_string().len() < 1 << 24);
    assert!(!lowered.schema().to_string().contains("$ref"));
    // Where references stay references, the declaration is as small as the schema.
    let kept = lower_json_schema(&shared, Target::OpenAiStrict);
    assert!(kept.is_strict(), "{:?}", kept.not_strict_because());
    assert_eq!(kept.schema()["$defs"].as_object().unwrap().len(), 31);
}
