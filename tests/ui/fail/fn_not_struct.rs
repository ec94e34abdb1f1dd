use agentkit_core::tool;

#[tool(name = "fetch_weather")]
pub fn fetch_weather(city: String) -> String {
    city
}

fn main() {}
