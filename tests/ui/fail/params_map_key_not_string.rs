use std::collections::HashMap;

use agentkit_core::ToolParams;

#[derive(ToolParams)]
pub struct Tally {
    pub votes: HashMap<u32, i64>,
}

fn main() {}
