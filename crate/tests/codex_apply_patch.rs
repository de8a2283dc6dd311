//! Codex's `apply_patch` in a session (codex.md §8.3–§8.5): verified before anything is
//! written, the success summary or the verification error in the shell layout.

use context_assembly::scenario::{parse_scenario, run_scenario};
use context_assembly::transcript::ToolResultBlock;

/// The result of each patch, applied one after the other to `app.py`.
fn results(patches: &[&str]) -> Vec<ToolResultBlock> {
    let steps: Vec<String> = (patches.iter().enumerate())
        .map(|(i, patch)| {
            let patch = serde_json::to_string(patch).unwrap();
            format!(
                r#"{{"kind": "assistant", "blocks": [{{"type": "tool_use", "id": "p{i}", "name": "apply_patch",
                    "input": {{"input": {patch}}}}}]}}"#
            )
        })
        .collect();
    let json = format!(
        r#"{{"profile": "codex", "cwd": "/repo", "files": {{"/repo/app.py": "def main():\n    print(\"hi\")\n"}},
            "steps": [{{"kind": "user", "prompt": "fix it"}}, {}]}}"#,
        steps.join(",")
    );
    let trace = run_scenario(&parse_scenario(&json).unwrap()).unwrap();
    (trace.steps.iter())
        .flat_map(|step| step.turn.tool_results.clone())
        .collect()
}

const UPDATE: &str = "*** Begin Patch\n*** Update File: app.py\n@@ def main():\n-    print(\"hi\")\n+    print(\"hello\")\n*** Add File: NOTES.md\n+done\n*** End Patch";

#[test]
fn a_patch_that_matches_is_applied_and_summarised() {
    let again = "*** Begin Patch\n*** Update File: app.py\n-    print(\"hello\")\n+    print(\"hello!\")\n*** Delete File: NOTES.md\n*** End Patch";
    let results = results(&[UPDATE, again]);
    assert_eq!(
        results[0].content,
        "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nA NOTES.md\nM app.py\n"
    );
    // the second patch finds what the first wrote
    assert!(!results[1].is_error, "{}", results[1].content);
    assert!(results[1].content.ends_with("M app.py\nD NOTES.md\n"));
}

#[test]
fn a_patch_that_does_not_match_changes_nothing_and_says_why() {
    let wrong = "*** Begin Patch\n*** Add File: new.txt\n+x\n*** Update File: app.py\n-    print(\"bye\")\n+    print(\"x\")\n*** End Patch";
    let results = results(&[
        wrong,
        "*** Begin Patch\n*** Delete File: new.txt\n*** End Patch",
    ]);
    assert!(results[0].is_error);
    assert!(results[0].content.ends_with(
        "Output:\napply_patch verification failed: Failed to find expected lines in app.py:\n    print(\"bye\")"
    ), "{}", results[0].content);
    // the Add before the failing Update was not written either
    assert!(results[1].is_error, "{}", results[1].content);
}
