//! `docs/spec-coverage.md`, the table of every numbered section of the three specs (issue 30):
//! one row per section its own section list names, a status from the four, a reason wherever
//! something is missing, modules and tests that exist, and counts that are the rows' counts.
//! The specs themselves live outside the repository, so the section list the table holds is
//! the reference.

use std::collections::BTreeMap;
use std::path::Path;

const SPECS: [&str; 3] = ["claude-code.md", "codex.md", "strategies.md"];
const STATUSES: [&str; 4] = ["built", "partial", "not built", "no behaviour"];

fn repo_file(name: &str) -> String {
    let path = format!("{}/../{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn exists(relative: &str) -> bool {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(relative)
        .exists()
}

/// One row of a spec's table.
struct Row {
    section: String,
    status: String,
    modules: Vec<String>,
    test: Option<String>,
    reason: String,
}

/// The cells of a table row, split on `|` not escaped as `\|`.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    let mut cells = vec![String::new()];
    let mut previous = ' ';
    for c in inner.chars() {
        if c == '|' && previous != '\\' {
            cells.push(String::new());
        } else {
            cells.last_mut().unwrap().push(c);
        }
        previous = c;
    }
    cells.iter().map(|c| c.trim().to_string()).collect()
}

/// The code spans of a cell: `a`, `b` gives [a, b]; `—` gives none.
fn code_spans(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The document's parts: the section list and the rows, per spec, and the counts table.
struct Coverage {
    sections: BTreeMap<String, Vec<String>>,
    rows: BTreeMap<String, Vec<Row>>,
    counts: BTreeMap<String, Vec<usize>>,
}

fn coverage() -> Coverage {
    let text = repo_file("docs/spec-coverage.md");
    let mut sections = BTreeMap::new();
    let mut rows: BTreeMap<String, Vec<Row>> = BTreeMap::new();
    let mut counts = BTreeMap::new();
    let mut current: Option<&str> = None;
    for line in text.lines() {
        if let Some(spec) = line.strip_prefix("## ") {
            current = SPECS.iter().copied().find(|s| *s == spec);
            continue;
        }
        for spec in SPECS {
            if let Some(list) = line.strip_prefix(&format!("{spec}: ")) {
                let numbers = list.split(", ").map(str::to_string).collect();
                sections.insert(spec.to_string(), numbers);
            }
        }
        let row = cells(line);
        let counts_row = SPECS.contains(&row[0].as_str()) || row[0] == "all";
        if line.starts_with("| ") && row.len() == 6 && counts_row {
            let figures = row[1..].iter().map(|c| c.parse().unwrap()).collect();
            counts.insert(row[0].clone(), figures);
        }
        if let (Some(spec), true) = (current, line.starts_with("| §")) {
            assert_eq!(row.len(), 6, "{spec}: a row has six cells: {line}");
            rows.entry(spec.to_string()).or_default().push(Row {
                section: row[0].trim_start_matches('§').to_string(),
                status: row[2].clone(),
                modules: code_spans(&row[3]),
                test: code_spans(&row[4]).pop(),
                reason: row[5].clone(),
            });
        }
    }
    Coverage {
        sections,
        rows,
        counts,
    }
}

#[test]
fn every_listed_section_has_exactly_one_row_in_order() {
    let coverage = coverage();
    for spec in SPECS {
        let listed = &coverage.sections[spec];
        let rows: Vec<&str> = coverage.rows[spec]
            .iter()
            .map(|r| r.section.as_str())
            .collect();
        assert_eq!(rows, *listed, "{spec}: the rows are not the section list");
        // A subsection's chapter is listed before it.
        for section in listed {
            if let Some((chapter, _)) = section.split_once('.') {
                assert!(listed.contains(&chapter.to_string()), "{spec} §{section}");
            }
        }
    }
}

#[test]
fn every_row_has_a_known_status_a_reason_when_something_is_missing_and_real_paths() {
    let coverage = coverage();
    for (spec, rows) in &coverage.rows {
        for row in rows {
            let at = format!("{spec} §{}", row.section);
            assert!(
                STATUSES.contains(&row.status.as_str()),
                "{at}: {}",
                row.status
            );
            if row.status != "built" {
                assert!(
                    row.reason != "—" && !row.reason.is_empty(),
                    "{at}: no reason"
                );
            }
            if row.status == "built" {
                assert!(!row.modules.is_empty(), "{at}: built, but where?");
                assert!(row.test.is_some(), "{at}: built, but no test");
            }
            for module in &row.modules {
                assert!(
                    exists(&format!("src/{module}")),
                    "{at}: no crate/src/{module}"
                );
            }
            if let Some(test) = &row.test {
                assert!(
                    exists(&format!("tests/{test}")),
                    "{at}: no crate/tests/{test}"
                );
            }
        }
    }
}

#[test]
fn the_counts_are_the_rows_counts() {
    let coverage = coverage();
    let mut all = vec![0usize; 5];
    for spec in SPECS {
        let rows = &coverage.rows[spec];
        let mut figures = vec![rows.len()];
        for status in STATUSES {
            figures.push(rows.iter().filter(|r| r.status == status).count());
        }
        assert_eq!(coverage.counts[spec], figures, "{spec}");
        for (total, figure) in all.iter_mut().zip(&figures) {
            *total += figure;
        }
    }
    assert_eq!(coverage.counts["all"], all);
}
