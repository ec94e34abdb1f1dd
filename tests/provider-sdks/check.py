"""Checks tool declarations with the providers' own Python SDKs (pinned in
tests/mcp-peers/requirements.txt).

Reads a JSON list of `{"api": ..., "tool": ..., "declaration": ...}` on stdin, one entry per
tool declaration agentkit wrote, and prints one JSON object on stdout:
`{"checked": <entries checked>, "helped": {<helper>: <schemas it saw>}, "problems": [{"api",
"tool", "check", "message"}, ...]}`.
Used by tests/tests/provider_sdks.rs; the `api`s are the names below.

What each SDK really validates, read from its source:

- google-genai: `types.Tool`, `types.FunctionDeclaration` and `types.Schema` are pydantic
  models with `extra='forbid'`: `model_validate` refuses a key the SDK does not know and a
  value of the wrong type or outside an enum (`Schema.type`, `Schema.enum` of strings). The
  `parameters` of `openapi_tools` are a `types.Schema`; `parametersJsonSchema` is typed `Any`
  (sent as given), so the SDK's own model of it, `types.JSONSchema` (same `extra='forbid'`),
  checks it too, except for the keywords Gemini documents for `parametersJsonSchema` that
  the model does not list (`JSON_SCHEMA_KEYWORDS_BEYOND_THE_SDK`). What the SDK would send
  (the `Tool` dumped by alias) must be the declaration itself.
- openai: the response-side models (`ChatCompletionFunctionTool`, `FunctionTool`) allow extra
  keys, so each declaration is also validated as the request's TypedDict
  (`ChatCompletionFunctionToolParam`, `FunctionToolParam`) with extra keys forbidden and
  strict types. A strict declaration's `parameters` must be a fixpoint of the SDK's own
  strict-schema helper `openai.lib._pydantic._ensure_strict_json_schema` (what
  `openai.pydantic_function_tool` sends): applying it changes nothing and raises nothing
  (the order of a `required` list aside: it means nothing).
- anthropic: `types.ToolParam` (TypedDict) with extra keys forbidden and strict types, and its
  `input_schema` as `InputSchemaTyped` (`type: "object"`). A strict declaration's
  `input_schema` goes through the SDK's strict-schema transformer
  `anthropic.lib._parse._transform.transform_schema` (what the SDK sends for structured
  outputs), which must not raise; the result must be the schema itself, up to what the
  transformer rewrites more conservatively than the API documents (see
  `anthropic_normalised`).
- a request's other tools (the tool search tools declared after deferred functions):
  `openai.types.responses.ToolParam` and `anthropic.types.ToolUnionParam`, the unions of every
  tool type, extra keys forbidden (`openai_responses_tool`, `anthropic_tool`).
- mcp: `mcp.types.Tool.model_validate`; the model ignores unknown keys, so what it reads back
  (`model_dump(by_alias=True, exclude_unset=True)`) must be the whole declaration.
"""

from __future__ import annotations

import copy
import json
import sys
import typing

import pydantic
import typing_extensions

import anthropic.types
import mcp.types
import openai.types.chat
import openai.types.responses
from anthropic.lib._parse._transform import transform_schema
from anthropic.types.tool_param import InputSchemaTyped
from google.genai import types as genai
from openai.lib._pydantic import _ensure_strict_json_schema

# Keywords Gemini's function-calling documentation lists for `parametersJsonSchema` that the
# SDK's `types.JSONSchema` model does not (it models a smaller subset).
JSON_SCHEMA_KEYWORDS_BEYOND_THE_SDK = {"prefixItems", "$id", "$anchor", "propertyOrdering"}


def closed(typed_dict: object, seen: set[int] | None = None) -> object:
    """Forbids extra keys and asks for strict types in `typed_dict` and every TypedDict it
    holds, unless the SDK configured one itself (anthropic's `InputSchemaTyped` allows extra
    keys on purpose: a JSON Schema's keywords). A TypedDict lists the keys the API knows; by
    default pydantic ignores others, which would hide a misspelt key."""
    seen = set() if seen is None else seen
    if id(typed_dict) in seen:
        return typed_dict
    seen.add(id(typed_dict))
    if typing_extensions.is_typeddict(typed_dict):
        if "__pydantic_config__" not in typed_dict.__dict__:
            typed_dict.__pydantic_config__ = {"extra": "forbid", "strict": True}
        for hint in typing_extensions.get_type_hints(typed_dict).values():
            closed(hint, seen)
    for argument in typing.get_args(typed_dict):
        closed(argument, seen)
    return typed_dict


OPENAI_CHAT_PARAM = pydantic.TypeAdapter(closed(openai.types.chat.ChatCompletionFunctionToolParam))
OPENAI_RESPONSES_PARAM = pydantic.TypeAdapter(closed(openai.types.responses.FunctionToolParam))
ANTHROPIC_PARAM = pydantic.TypeAdapter(closed(anthropic.types.ToolParam))
ANTHROPIC_INPUT_SCHEMA = pydantic.TypeAdapter(InputSchemaTyped)
# Any tool of a request: the server tools agentkit declares beside the functions (the tool
# search tools after deferred ones).
OPENAI_RESPONSES_ANY_TOOL = pydantic.TypeAdapter(closed(openai.types.responses.ToolParam))
ANTHROPIC_ANY_TOOL = pydantic.TypeAdapter(closed(anthropic.types.ToolUnionParam))


# How many schemas each helper saw, for the test to check that none was skipped.
HELPED = {"openai_strict": 0, "anthropic_strict": 0, "gemini_json_schema": 0, "gemini_openapi": 0}


def openai_strict(parameters: object) -> list[tuple[str, str]]:
    """The SDK's strict helper must leave a strict schema as it is."""
    HELPED["openai_strict"] += 1
    helped = copy.deepcopy(parameters)
    try:
        # As `to_strict_json_schema` calls it: the schema is its own root, changed in place.
        helped = _ensure_strict_json_schema(helped, path=(), root=helped)
    except Exception as error:  # the helper raises TypeError, ValueError, AssertionError
        return [("openai.lib._pydantic._ensure_strict_json_schema", f"raised {type(error).__name__}: {error}")]
    if unordered_required(helped) != unordered_required(parameters):
        return [("openai.lib._pydantic._ensure_strict_json_schema", f"changed the schema: {first_difference(parameters, helped)}")]
    return []


def unordered_required(schema: object) -> object:
    """`schema` with every `required` list as a set: its order means nothing (the helper
    lists the properties in their order, agentkit in the order they were declared)."""
    if isinstance(schema, list):
        return [unordered_required(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        key: (
            frozenset(value)
            if key == "required" and isinstance(value, list) and all(isinstance(v, str) for v in value)
            else {name: unordered_required(sub) for name, sub in value.items()}
            if key in ("properties", "$defs", "definitions") and isinstance(value, dict)
            else unordered_required(value)
        )
        for key, value in schema.items()
    }


def anthropic_normalised(schema: object) -> object:
    """`schema` as the SDK's `transform_schema` would leave it if it did not rewrite what the
    API documents for strict tool use but the transformer handles conservatively:
    - `default` and `pattern` (documented as supported; the transformer moves every keyword
      it does not list into the description),
    - `type` beside `enum`/`const` (the transformer drops it as redundant),
    - annotations beside a `$ref` (the transformer keeps the `$ref` alone)."""
    if isinstance(schema, list):
        return [anthropic_normalised(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key in ("default", "pattern"):
            continue
        if key in ("properties", "$defs"):
            out[key] = {name: anthropic_normalised(sub) for name, sub in value.items()}
        elif key in ("items", "anyOf", "allOf", "oneOf"):
            out[key] = anthropic_normalised(value)
        else:
            out[key] = value
    if "$ref" in out:
        out = {key: out[key] for key in ("$ref", "$defs") if key in out}
    if ("enum" in out or "const" in out) and out.get("type") != "object":
        out.pop("type", None)
    return out


def anthropic_strict(input_schema: object) -> list[tuple[str, str]]:
    """The SDK's strict-schema transformer must take the schema and keep it as it is."""
    HELPED["anthropic_strict"] += 1
    name = "anthropic.lib._parse._transform.transform_schema"
    normalised = anthropic_normalised(input_schema)
    try:
        transformed = transform_schema(copy.deepcopy(normalised))
    except Exception as error:  # ValueError, AssertionError (assert_never) on a form it does not know
        return [(name, f"raised {type(error).__name__}: {error}")]
    if transformed != normalised:
        return [(name, f"changed the schema: {first_difference(normalised, transformed)}")]
    return []


def first_difference(before: object, after: object, path: str = "") -> str:
    """The JSON pointer of the first place `after` differs from `before`, and the two values."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in list(before) + [key for key in after if key not in before]:
            if before.get(key, "<absent>") != after.get(key, "<absent>"):
                return first_difference(before.get(key, "<absent>"), after.get(key, "<absent>"), f"{path}/{key}")
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (left, right) in enumerate(zip(before, after)):
            if left != right:
                return first_difference(left, right, f"{path}/{index}")
    return f"at '{path}': {json.dumps(before)[:300]} became {json.dumps(after)[:300]}"


def validated(check: str, validate: typing.Callable[[], object]) -> list[tuple[str, str]]:
    """Runs one of the SDK's validations; its message if it refuses."""
    try:
        validate()
    except pydantic.ValidationError as error:
        return [(check, str(error))]
    return []


def gemini_json_schema(schema: object) -> list[tuple[str, str]]:
    """`parametersJsonSchema` as the SDK's `types.JSONSchema` models it (recursively), the
    documented keywords it lacks set aside."""
    HELPED["gemini_json_schema"] += 1

    def without_extras(value: object) -> object:
        if isinstance(value, dict):
            return {
                key: (
                    {name: without_extras(sub) for name, sub in item.items()}
                    if key in ("properties", "$defs") and isinstance(item, dict)
                    else without_extras(item)
                )
                for key, item in value.items()
                if key not in JSON_SCHEMA_KEYWORDS_BEYOND_THE_SDK
            }
        if isinstance(value, list):
            return [without_extras(item) for item in value]
        return value

    return validated("google.genai.types.JSONSchema", lambda: genai.JSONSchema.model_validate(without_extras(schema)))


def check(api: str, declaration: dict) -> list[tuple[str, str]]:
    """Every problem the SDKs find with one declaration of `api`."""
    if api in ("openai_chat", "openai_chat_strict"):
        problems = validated("openai.types.chat.ChatCompletionFunctionToolParam", lambda: OPENAI_CHAT_PARAM.validate_python(declaration))
        problems += validated("openai.types.chat.ChatCompletionFunctionTool", lambda: openai.types.chat.ChatCompletionFunctionTool.model_validate(declaration))
        function = declaration.get("function", {})
        if function.get("strict") is True:
            problems += openai_strict(function.get("parameters"))
        return problems
    if api in ("openai_responses", "openai_responses_strict"):
        problems = validated("openai.types.responses.FunctionToolParam", lambda: OPENAI_RESPONSES_PARAM.validate_python(declaration))
        problems += validated("openai.types.responses.FunctionTool", lambda: openai.types.responses.FunctionTool.model_validate(declaration))
        if declaration.get("strict") is True:
            problems += openai_strict(declaration.get("parameters"))
        return problems
    if api in ("anthropic", "anthropic_strict"):
        problems = validated("anthropic.types.ToolParam", lambda: ANTHROPIC_PARAM.validate_python(declaration))
        problems += validated("anthropic.types.tool_param.InputSchemaTyped", lambda: ANTHROPIC_INPUT_SCHEMA.validate_python(declaration.get("input_schema")))
        if declaration.get("strict") is True:
            problems += anthropic_strict(declaration.get("input_schema"))
        return problems
    if api in ("gemini", "gemini_openapi"):
        problems = validated("google.genai.types.Tool", lambda: genai.Tool.model_validate(declaration))
        if not problems:
            # What the SDK sends is the model dumped: it must be the declaration, whole.
            sent = genai.Tool.model_validate(declaration).model_dump(by_alias=True, exclude_none=True, mode="json")
            if sent != declaration:
                problems.append(("google.genai.types.Tool", f"the SDK would send it otherwise: {first_difference(declaration, sent)}"))
        for function in declaration.get("functionDeclarations", []):
            if "parameters" in function:
                HELPED["gemini_openapi"] += 1
            if api == "gemini_openapi" and "parametersJsonSchema" in function:
                problems.append(("agentkit", "the OpenAPI form declares parametersJsonSchema"))
            if "parametersJsonSchema" in function:
                problems += gemini_json_schema(function["parametersJsonSchema"])
        return problems
    if api == "openai_responses_tool":
        return validated("openai.types.responses.ToolParam", lambda: OPENAI_RESPONSES_ANY_TOOL.validate_python(declaration))
    if api == "anthropic_tool":
        return validated("anthropic.types.ToolUnionParam", lambda: ANTHROPIC_ANY_TOOL.validate_python(declaration))
    if api == "mcp":
        problems = validated("mcp.types.Tool", lambda: mcp.types.Tool.model_validate(declaration))
        if not problems:
            # `Tool` ignores a key it does not know: what it reads back must be all there was.
            read = mcp.types.Tool.model_validate(declaration).model_dump(by_alias=True, exclude_unset=True, mode="json")
            if read != declaration:
                problems.append(("mcp.types.Tool", f"keys the SDK does not know: {first_difference(declaration, read)}"))
        return problems
    return [("check.py", f"unknown api {api!r}")]


def main() -> None:
    entries = json.load(sys.stdin)
    problems = []
    for entry in entries:
        for sdk_check, message in check(entry["api"], entry["declaration"]):
            problems.append({"api": entry["api"], "tool": entry["tool"], "check": sdk_check, "message": message})
    json.dump({"checked": len(entries), "helped": HELPED, "problems": problems}, sys.stdout)


if __name__ == "__main__":
    main()
