//! The rule tables against what implements them: every column a dialect's
//! table sets is honoured by the event's reader, by the merge or by the
//! timeout layer.

use crate::dialect::{Dialect, ALL, CLAUDE, COPILOT};
use crate::model::event::{HookEvent, RunEvent};
use crate::model::rules::Column;

/// "Readers declare the rule columns they honour": every column a table
/// sets (a value other than the neutral row's) must be honoured by the
/// event's reader in that dialect or by the canonical merge.
#[test]
fn every_column_a_table_sets_is_honoured_by_its_reader_or_the_merge() {
    let named = ALL.iter().flat_map(|d| d.profile().named).map(|n| RunEvent::Named(n.name.into()));
    let events: Vec<RunEvent> = HookEvent::ALL
        .iter()
        .map(|e| RunEvent::Known(*e))
        .chain(named)
        .chain([RunEvent::Named("Custom".into())])
        .collect();
    for event in &events {
        let event = event.clone();
        for d in ALL {
            for column in d.profile().rules_of(&event).set_columns() {
                assert!(
                    honoured(*d, &event, column),
                    "the {} table sets {column:?} for {event}, which neither its reader nor the merge honours",
                    d.name()
                );
            }
        }
    }
}

fn honoured(d: &dyn Dialect, event: &RunEvent, column: Column) -> bool {
    let family = d.profile().family_of(event);
    d.honours(event).contains(&column)
        || super::honours(family).contains(&column)
        || crate::handler::layer::timeout::HONOURS.contains(&column)
}

#[test]
fn the_coverage_check_rejects_a_column_nothing_honours() {
    // Exit 2 has no blocking meaning on SessionStart, and SessionStart
    // has no decisions to stop at: a table setting either would fail.
    let session_start = RunEvent::Known(HookEvent::SessionStart);
    assert!(!honoured(CLAUDE, &session_start, Column::Exit2Block));
    assert!(!honoured(CLAUDE, &session_start, Column::FirstDenyStops));
    assert!(!honoured(COPILOT, &session_start, Column::Exit2Context));
    assert!(!honoured(CLAUDE, &RunEvent::Known(HookEvent::Stop), Column::MostRestrictive));
    assert!(honoured(CLAUDE, &RunEvent::Known(HookEvent::PreToolUse), Column::MostRestrictive));
}
