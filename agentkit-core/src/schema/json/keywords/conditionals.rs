//! `if`, `then` and `else`.

use serde_json::{Map, Value};

use crate::schema::json::compile::Compiler;
use crate::schema::json::index::Place;
use crate::schema::json::node::{Keyword, NodeId};
use crate::schema::json::validate::{Cx, Evaluated, Loc};

pub(in crate::schema::json) fn compile<'d>(
    c: &mut Compiler<'d, '_>,
    map: &'d Map<String, Value>,
    place: &Place,
    out: &mut Vec<Keyword>,
) {
    // `then` and `else` without `if` do nothing.
    let Some(condition) = map.get("if") else {
        return;
    };
    let condition = c.sub(condition, place, "if");
    let then = map.get("then").map(|s| c.sub(s, place, "then"));
    let otherwise = map.get("else").map(|s| c.sub(s, place, "else"));
    // Without `then` or `else` it still counts: what a holding `if` evaluated is evaluated.
    out.push(Keyword::IfThenElse {
        condition,
        then,
        otherwise,
    });
}

/// The condition runs quietly: its failure only chooses `else`.
pub(in crate::schema::json) fn check(
    cx: &mut Cx<'_>,
    condition: NodeId,
    then: Option<NodeId>,
    otherwise: Option<NodeId>,
    value: &Value,
    loc: Loc<'_>,
    mut eval: Option<&mut Evaluated>,
) -> bool {
    let tracking = eval.is_some();
    let mut seen = Evaluated::default();
    let holds = cx.quietly(|cx| cx.node(condition, value, loc, tracking.then_some(&mut seen)));
    if holds && let Some(eval) = eval.as_deref_mut() {
        eval.merge(seen);
    }
    match if holds { then } else { otherwise } {
        Some(branch) => cx.node(branch, value, loc, eval),
        None => true,
    }
}
