//! `crate = "..."`: agentkit-core under another name.

extern crate agentkit_core as ak;

use ak::{BoxError, JsonObject, Tool, ToolContext, ToolHandler};

#[ak::tool(
    crate = "ak",
    name = "ping",
    input = [
        { name = "host", type = string },
        { name = "proto", type = string, required = false, enum = ["icmp", "tcp"], default = "icmp" },
        { name = "via", type = list, items = dictionary, required = false, fields = [{ name = "hop", type = string }] },
    ],
)]
pub struct Ping;

impl ToolHandler for Ping {
    async fn run(&self, input: PingInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let mut out = JsonObject::new();
        out.insert("host".into(), input.host.into());
        out.insert("proto".into(), input.proto.to_string().into());
        let hops: Vec<PingInputVia> = input.via.unwrap_or_default();
        out.insert("hops".into(), hops.len().into());
        Ok(out)
    }
}

/// `#[param(crate = "...")]`: the same for `#[derive(ToolParams)]`.
#[derive(ak::ToolParams)]
#[param(crate = "ak")]
pub enum Proto {
    Icmp,
    Tcp,
}

#[derive(ak::ToolParams)]
#[param(crate = "ak")]
pub struct TraceArgs {
    pub host: String,
    #[param(default = "icmp")]
    pub proto: Proto,
}

#[ak::tool(crate = "ak", name = "trace", input = TraceArgs)]
pub struct Trace;

impl ToolHandler for Trace {
    async fn run(&self, input: TraceArgs, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let mut out = JsonObject::new();
        out.insert(input.host, matches!(input.proto, Proto::Tcp).into());
        Ok(out)
    }
}

fn main() {
    assert_eq!(Ping.spec().name(), "ping");
    assert_eq!(Trace.spec().input_schema().unwrap().parameters().len(), 2);
}
