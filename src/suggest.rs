//! "Did you mean …?": the closest of a set of known names to a name that is
//! not one of them (a misspelt event, hook field or variable).
//!
//! Names are compared without case, `_` and `-` (`pre_tool_use` is
//! `PreToolUse`), by the optimal string alignment distance (insertions,
//! deletions, substitutions and swaps of two neighbours, each counting 1).
//! A candidate is close enough when the distance is at most a quarter of
//! the longer name's length (at least 1, at most 3): `PreToolUze`
//! is `PreToolUse`, `matchr` is `matcher`, `timout` is `timeout`, while
//! `Shell` is not `Skill`. Only the candidates given are ever suggested, so
//! a suggestion is always a name of the caller's own vocabulary (one
//! dialect's events, one dialect's hook fields).

/// The candidate closest to `wanted` that is close enough (see the module
/// documentation), the first of equally close ones; `None` when `wanted` is
/// one of the candidates exactly or none is close.
pub fn closest<'a, I>(wanted: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let w = normalize(wanted);
    if w.is_empty() {
        return None;
    }
    let mut best: Option<(usize, &'a str)> = None;
    for c in candidates {
        if c == wanted {
            return None;
        }
        let n = normalize(c);
        let limit = (n.len().max(w.len()) / 4).clamp(1, 3);
        let d = distance(&w, &n);
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Lower case, without `_` and `-`.
fn normalize(s: &str) -> Vec<char> {
    s.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase).collect()
}

/// The optimal string alignment distance of `a` and `b`.
fn distance(a: &[char], b: &[char]) -> usize {
    // Three rows: the one before the previous (for swaps), the previous, this one.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            cur[j] = d;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspellings_find_the_name_they_misspell() {
        let events = ["PreToolUse", "PostToolUse", "Stop", "SessionStart"];
        assert_eq!(closest("PreToolUze", events), Some("PreToolUse"));
        assert_eq!(closest("pre_tool_use", events), Some("PreToolUse"));
        assert_eq!(closest("PreTolUse", events), Some("PreToolUse"));
        assert_eq!(closest("Sotp", events), Some("Stop"));
        assert_eq!(closest("matchr", ["matcher", "hooks"]), Some("matcher"));
        assert_eq!(closest("timout", ["type", "command", "timeout"]), Some("timeout"));
        assert_eq!(closest("Bsah", ["Bash", "Edit"]), Some("Bash"));
    }

    #[test]
    fn names_far_from_every_candidate_get_no_suggestion() {
        assert_eq!(closest("Shell", ["Bash", "Skill", "Edit"]), None);
        assert_eq!(closest("TeammateIdle", ["PreToolUse", "Stop"]), None);
        assert_eq!(closest("", ["Stop"]), None);
        assert_eq!(closest("x", std::iter::empty()), None);
    }

    #[test]
    fn an_exact_name_is_not_a_misspelling_but_a_case_variant_is() {
        assert_eq!(closest("Stop", ["Stop", "Stopp"]), None);
        assert_eq!(closest("stop", ["Stop"]), Some("Stop"));
        assert_eq!(closest("Shell", ["shell"]), Some("shell"));
    }

    #[test]
    fn the_closest_of_several_candidates_wins() {
        assert_eq!(closest("PostToolUs", ["PreToolUse", "PostToolUse"]), Some("PostToolUse"));
        assert_eq!(distance(&normalize("ab"), &normalize("ba")), 1);
        assert_eq!(distance(&normalize("kitten"), &normalize("sitting")), 3);
    }
}
