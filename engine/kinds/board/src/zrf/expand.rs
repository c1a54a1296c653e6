//! `(define name body…)` macros: a list whose first item names a macro, `(name arg…)`, is
//! replaced by the macro's body items, spliced into the enclosing list, with each atom `$n`
//! replaced by the n-th argument (a whole node, atom or list). The result is expanded again,
//! so bodies and arguments may call macros.
//!
//! Places: nodes copied from a body keep their place **in the body** (where the text is to be
//! fixed) and record in [`Node::site`] the place of the outermost call; arguments keep their
//! own places. A block that a macro produced is therefore located at its call
//! ([`crate::rules::MoveDef::span`]), its instructions in the body.
//!
//! Bounded: macro calls nested deeper than [`MAX_MACRO_DEPTH`] (recursion), output deeper
//! than [`MAX_DEPTH`], more than [`MAX_EXPANDED_NODES`] nodes built or [`MAX_MACRO_CALLS`]
//! calls expanded are located errors.

use std::collections::HashMap;
use std::rc::Rc;

use super::sexpr::{Kind, Node, depth, err, size};
use super::{MAX_DEPTH, MAX_EXPANDED_NODES, MAX_MACRO_CALLS, MAX_MACRO_DEPTH, ZrfProblem};
use crate::rules::Span;
use tilesmith_core::problem::quote;

/// One `(define …)`.
struct Macro {
    body: Rc<[Node]>,
}

/// Expands the macros of a file's top-level nodes. Returns the top-level forms other than
/// `define`, expanded, and warnings (a macro defined twice).
///
/// # Errors
/// The first error: a malformed `define`, a `define` inside another form, a `$n` past the
/// call's arguments, or a bound exceeded.
pub(crate) fn expand(top: Vec<Node>) -> Result<(Vec<Node>, Vec<ZrfProblem>), ZrfProblem> {
    let mut macros: HashMap<String, Macro> = HashMap::new();
    let mut warnings = Vec::new();
    let mut forms = Vec::new();
    for node in top {
        match node.head() {
            Some((h, rest)) if h == "define" => {
                let Some((name, body)) = rest.split_first() else {
                    return Err(err(node.span, "(define …) needs a name and a body"));
                };
                let Some(n) = name.atom() else {
                    return Err(err(name.span, "a macro's name must be a word"));
                };
                let old = macros.insert(
                    n.to_string(),
                    Macro {
                        body: Rc::from(body),
                    },
                );
                if old.is_some() {
                    super::push_capped(
                        &mut warnings,
                        ZrfProblem {
                            span: node.span,
                            message: format!(
                                "macro {} is defined again; this later one is used",
                                quote(n)
                            ),
                            warning: true,
                            more: 0,
                        },
                    );
                }
            }
            _ => forms.push(node),
        }
    }
    let mut ex = Expander {
        macros,
        built: 0,
        calls: 0,
    };
    let mut out = Vec::new();
    for form in &forms {
        ex.item(form, &mut out, 0, 0)?;
    }
    Ok((out, warnings))
}

struct Expander {
    macros: HashMap<String, Macro>,
    /// Nodes built so far.
    built: usize,
    /// Macro calls expanded so far.
    calls: usize,
}

impl Expander {
    fn count(&mut self, n: usize, at: Span) -> Result<(), ZrfProblem> {
        self.built += n;
        if self.built > MAX_EXPANDED_NODES {
            return Err(err(
                at,
                format!(
                    "macro expansion makes more than {MAX_EXPANDED_NODES} items; Tilesmith stops here"
                ),
            ));
        }
        Ok(())
    }

    /// Expands `node` (at list depth `depth`, inside `mdepth` macro calls) onto `out`: a macro
    /// call adds its expansion's items, anything else one node.
    fn item(
        &mut self,
        node: &Node,
        out: &mut Vec<Node>,
        depth: usize,
        mdepth: usize,
    ) -> Result<(), ZrfProblem> {
        let Kind::List(items) = &node.kind else {
            self.count(1, node.span)?;
            out.push(node.clone());
            return Ok(());
        };
        if let Some((first, args)) = items.split_first()
            && let Some(name) = first.atom()
        {
            if name.eq_ignore_ascii_case("define") {
                return Err(err(
                    node.span,
                    "(define …) is allowed only at the top level of the file",
                ));
            }
            if let Some(m) = self.macros.get(name) {
                if mdepth >= MAX_MACRO_DEPTH {
                    return Err(err(
                        node.span,
                        format!(
                            "macro {} is called inside more than {MAX_MACRO_DEPTH} nested macro calls (a macro that calls itself?){}",
                            quote(name),
                            node.site_note()
                        ),
                    ));
                }
                self.calls += 1;
                if self.calls > MAX_MACRO_CALLS {
                    return Err(err(
                        node.span,
                        format!("more than {MAX_MACRO_CALLS} macro calls; Tilesmith stops here"),
                    ));
                }
                let site = node.site.unwrap_or(node.span);
                let body = Rc::clone(&m.body);
                let mut expanded = Vec::with_capacity(body.len());
                for b in body.iter() {
                    expanded.push(self.subst(b, args, name, site, node.span, depth)?);
                }
                for e in &expanded {
                    self.item(e, out, depth, mdepth + 1)?;
                }
                return Ok(());
            }
        }
        if depth >= MAX_DEPTH {
            return Err(err(
                node.span,
                format!(
                    "lists nested deeper than {MAX_DEPTH} levels after macro expansion{}",
                    node.site_note()
                ),
            ));
        }
        self.count(1, node.span)?;
        let mut v = Vec::with_capacity(items.len());
        for it in items {
            self.item(it, &mut v, depth + 1, mdepth)?;
        }
        out.push(Node {
            kind: Kind::List(v),
            span: node.span,
            site: node.site,
        });
        Ok(())
    }

    /// A copy of the body node `b` with `$n` replaced by `args[n-1]`, marked as coming from the
    /// call at `site`. `at` is the list depth where the result will stand.
    fn subst(
        &mut self,
        b: &Node,
        args: &[Node],
        name: &str,
        site: Span,
        call: Span,
        at: usize,
    ) -> Result<Node, ZrfProblem> {
        match &b.kind {
            Kind::Atom(a) => {
                if let Some(n) = param(a) {
                    let Some(arg) = n.checked_sub(1).and_then(|i| args.get(i)) else {
                        return Err(err(
                            b.span,
                            format!(
                                "macro {} uses ${n} but the call at {}:{} gives {} argument{}",
                                quote(name),
                                call.line,
                                call.col,
                                args.len(),
                                if args.len() == 1 { "" } else { "s" }
                            ),
                        ));
                    };
                    if at + depth(arg) > MAX_DEPTH {
                        return Err(err(
                            call,
                            format!(
                                "lists nested deeper than {MAX_DEPTH} levels after macro expansion"
                            ),
                        ));
                    }
                    self.count(size(arg), call)?;
                    return Ok(arg.clone());
                }
                self.count(1, call)?;
                Ok(Node {
                    kind: b.kind.clone(),
                    span: b.span,
                    site: Some(site),
                })
            }
            Kind::Str(_) => {
                self.count(1, call)?;
                Ok(Node {
                    kind: b.kind.clone(),
                    span: b.span,
                    site: Some(site),
                })
            }
            Kind::List(items) => {
                if at >= MAX_DEPTH {
                    return Err(err(
                        call,
                        format!(
                            "lists nested deeper than {MAX_DEPTH} levels after macro expansion"
                        ),
                    ));
                }
                self.count(1, call)?;
                let mut v = Vec::with_capacity(items.len());
                for it in items {
                    v.push(self.subst(it, args, name, site, call, at + 1)?);
                }
                Ok(Node {
                    kind: Kind::List(v),
                    span: b.span,
                    site: Some(site),
                })
            }
        }
    }
}

/// `$n` → `n` (n ≥ 1 written in decimal digits).
fn param(a: &str) -> Option<usize> {
    let digits = a.strip_prefix('$')?;
    if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().filter(|&n| n >= 1)
}

#[cfg(test)]
mod tests {
    use super::super::sexpr::read;
    use super::*;

    fn run(t: &str) -> Result<Vec<Node>, ZrfProblem> {
        expand(read(t).unwrap()).map(|(v, _)| v)
    }

    /// The text of a node, for comparing expansions.
    fn show(n: &Node) -> String {
        match &n.kind {
            Kind::Atom(a) => a.to_string(),
            Kind::Str(s) => format!("\"{s}\""),
            Kind::List(v) => format!("({})", v.iter().map(show).collect::<Vec<_>>().join(" ")),
        }
    }

    #[test]
    fn substitution_splicing_and_nested_calls() {
        let out = run("(define step ($1 (verify empty?) add))\n\
             (define two (step $1) (step $2))\n\
             (moves (two n (s)) x)")
        .unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(
            show(&out[0]),
            "(moves (n (verify empty?) add) ((s) (verify empty?) add) x)"
        );
        // Body nodes keep their place in the body and record the outermost call.
        let moves = out[0].list().unwrap();
        let block = moves[1].list().unwrap();
        assert_eq!(moves[1].span, Span { line: 1, col: 14 });
        assert_eq!(moves[1].site, Some(Span { line: 3, col: 8 }));
        assert_eq!(block[1].span, Span { line: 1, col: 18 });
        // An argument keeps its own place.
        assert_eq!(block[0].span, Span { line: 3, col: 13 });
        assert_eq!(moves[3].site, None);
    }

    #[test]
    fn missing_argument_is_located_in_the_body() {
        let e = run("(define m ($1 $2))\n(x (m a))").unwrap_err();
        assert_eq!(e.span, Span { line: 1, col: 15 });
        assert!(
            e.message.contains("$2") && e.message.contains("2:4"),
            "{}",
            e.message
        );
    }

    #[test]
    fn recursion_and_blow_up_are_bounded() {
        let e = run("(define r (r $1))\n(x (r a))").unwrap_err();
        assert!(e.message.contains("nested macro calls"), "{}", e.message);
        // Each level doubles its argument: 2^40 nodes if nothing stopped it.
        let mut t = String::from("(define d0 ($1 $1))\n");
        for i in 1..40 {
            t.push_str(&format!("(define d{i} (d{} (d{} $1)))\n", i - 1, i - 1));
        }
        t.push_str("(x (d39 a))");
        let e = run(&t).unwrap_err();
        assert!(e.message.contains("more than"), "{}", e.message);
        // Depth grows by substitution: bounded too.
        let e = run("(define w (w (($1))))\n(x (w a))").unwrap_err();
        assert!(e.message.contains("nested"), "{}", e.message);
        // Empty macros called many times.
        let mut t = String::from("(define z)\n(define y (z) (z) (z) (z) (z) (z) (z) (z))\n");
        for i in 0..12 {
            t.push_str(&format!(
                "(define y{i} ({p}) ({p}) ({p}) ({p}) ({p}) ({p}) ({p}) ({p}))\n",
                p = if i == 0 {
                    "y".to_string()
                } else {
                    format!("y{}", i - 1)
                }
            ));
        }
        t.push_str("(x (y11))");
        let e = run(&t).unwrap_err();
        assert!(e.message.contains("macro calls"), "{}", e.message);
    }

    #[test]
    fn define_inside_a_form_is_refused() {
        let e = run("(game\n (define a (b)))").unwrap_err();
        assert_eq!(e.span, Span { line: 2, col: 2 });
    }
}
