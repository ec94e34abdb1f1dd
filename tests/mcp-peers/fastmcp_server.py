"""An MCP server over stdio as the official Python SDK's users write one: FastMCP (renamed
`MCPServer` in `mcp` 2, the version pinned in requirements.txt) with typed functions and
pydantic models, whose `inputSchema` pydantic generates: `Optional[X] = None` (an `anyOf` with
`null`), nested models (`$ref`s into `$defs`), `Literal` and `Enum` parameters, a list of
models, a union, defaults and bounds. agentkit's client is tested on the JSON Schema pydantic
emits, not on schemas written by hand.

Every tool but `calls` echoes what it was sent, as one JSON text block:
  {"tool": name, "arguments": <as they arrived>, "parsed": <after pydantic>}
`calls` answers {"calls": n}: how many calls to the other tools reached the server, counted
before pydantic validates them, so that a test can tell that a call refused by the client
never reached it.

Usage: tests/mcp-peers/.venv/bin/python fastmcp_server.py
(agentkit's tests/mcp/tests/mcp_foreign_schemas.rs starts it; the venv:
python3 -m venv tests/mcp-peers/.venv && tests/mcp-peers/.venv/bin/pip install -r
tests/mcp-peers/requirements.txt)
"""

import json
from enum import Enum
from typing import Any, Literal, Optional, Union

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field
from pydantic_core import to_jsonable_python


class CountingServer(MCPServer):
    """Counts the calls to the tools (but `calls`) as they arrive, valid or not."""

    received = 0
    last_arguments: Any = None

    async def call_tool(self, name, arguments, context=None):
        if name != "calls":
            CountingServer.received += 1
            CountingServer.last_arguments = arguments
        return await super().call_tool(name, arguments, context)


server = CountingServer("fastmcp-server", version="1.0.0")


def echo(tool: str, parsed: dict[str, Any]) -> str:
    return json.dumps(
        {
            "tool": tool,
            "arguments": CountingServer.last_arguments,
            "parsed": to_jsonable_python(parsed),
        }
    )


class Address(BaseModel):
    street: str
    city: str
    postcode: Optional[str] = None


class Traveller(BaseModel):
    name: str = Field(min_length=1, max_length=40)
    address: Address
    phone: Optional[str] = None


class Seat(str, Enum):
    aisle = "aisle"
    window = "window"
    middle = "middle"


class Item(BaseModel):
    sku: str = Field(pattern=r"^[A-Z]{3}-[0-9]{4}$")
    quantity: int = Field(default=1, ge=1, le=99)


@server.tool(structured_output=False)
def book_trip(
    traveller: Traveller,
    destination: Literal["paris", "tokyo", "lima"],
    seat: Seat = Seat.aisle,
    nights: int = Field(default=1, ge=1, le=30),
    note: Optional[str] = None,
    companions: list[Traveller] = [],
) -> str:
    """Books a trip."""
    return echo(
        "book_trip",
        {
            "traveller": traveller,
            "destination": destination,
            "seat": seat,
            "nights": nights,
            "note": note,
            "companions": companions,
        },
    )


@server.tool(structured_output=False)
def ship(
    items: list[Item],
    to: Address,
    reference: Union[int, str],
    gift_wrap: Optional[Address] = None,
    express: bool = False,
) -> str:
    """Ships items to an address."""
    return echo(
        "ship",
        {
            "items": items,
            "to": to,
            "reference": reference,
            "gift_wrap": gift_wrap,
            "express": express,
        },
    )


@server.tool(structured_output=False)
def calls() -> str:
    """How many calls to the other tools reached this server."""
    return json.dumps({"calls": CountingServer.received})


if __name__ == "__main__":
    server.run("stdio")
