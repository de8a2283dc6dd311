//! The Read tool against the shared fixture `tests/fixtures/read.json` (its `description`
//! documents the shape), and its invariants on generated input.

use context_assembly::read::{
    format_file_size, image_info, mention_window, pdf_page_count, plan_image, plan_pdf, read_text,
    ReadNotice, ReadRequest, ReadRules,
};
use proptest::prelude::*;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Fixture {
    cases: Vec<Case>,
    format_file_size: Vec<SizeVector>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Case {
    name: String,
    content: String,
    offset: Option<u64>,
    limit: Option<i64>,
    profile: String,
    extension: Option<String>,
    max_size_bytes: Option<u64>,
    max_tokens: Option<u64>,
    expected: Expected,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Expected {
    text: Option<String>,
    notice: Option<String>,
    error: Option<String>,
    #[serde(default)]
    message: Vec<String>,
    total_lines: Option<u64>,
    start_line: Option<u64>,
    num_lines: Option<u64>,
    slice: Option<String>,
}

#[derive(Deserialize)]
struct SizeVector {
    bytes: u64,
    expected: String,
}

fn fixture() -> Fixture {
    let path = format!("{}/../tests/fixtures/read.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("fixture exists");
    serde_json::from_str(&text).expect("fixture parses")
}

fn rules_for(case: &Case) -> ReadRules {
    let mut rules = match case.profile.as_str() {
        "claude-code" => ReadRules::claude_code(),
        "recommended" => ReadRules::recommended(),
        other => panic!("{}: unknown profile {other}", case.name),
    };
    if let Some(max) = case.max_size_bytes {
        rules.limits.max_size_bytes = max;
    }
    if let Some(max) = case.max_tokens {
        rules.limits.max_tokens = max;
    }
    rules
}

#[test]
fn fixture_cases() {
    for case in fixture().cases {
        let rules = rules_for(&case);
        let request = ReadRequest {
            offset: case.offset,
            limit: case.limit,
            extension: case.extension.as_deref(),
        };
        let name = &case.name;
        let expected = &case.expected;
        match read_text(&case.content, &request, &rules) {
            Err(err) => {
                let kind = format!("{err:?}");
                let wanted = expected.error.as_deref().unwrap_or("no error");
                assert!(kind.starts_with(wanted), "{name}: got {kind}");
                for part in &expected.message {
                    assert!(err.to_string().contains(part.as_str()), "{name}: {err}");
                }
            }
            Ok(read) => {
                assert_eq!(expected.error, None, "{name}: read succeeded");
                if let Some(text) = &expected.text {
                    assert_eq!(&read.text, text, "{name}");
                }
                let notice = read.notice.map(|n| match n {
                    ReadNotice::EmptyFile => "emptyFile",
                    ReadNotice::ShorterThanOffset { .. } => "shorterThanOffset",
                });
                assert_eq!(notice, expected.notice.as_deref(), "{name}");
                let got = [
                    Some(read.total_lines),
                    Some(read.start_line),
                    Some(read.num_lines),
                ];
                let want = [
                    expected.total_lines,
                    expected.start_line,
                    expected.num_lines,
                ];
                for (got, want) in got.iter().zip(want) {
                    if want.is_some() {
                        assert_eq!(*got, want, "{name}");
                    }
                }
                if let Some(slice) = &expected.slice {
                    assert_eq!(read.slice.as_str(&case.content), slice, "{name}");
                }
            }
        }
    }
}

#[test]
fn format_file_size_vectors() {
    for vector in fixture().format_file_size {
        assert_eq!(
            format_file_size(vector.bytes),
            vector.expected,
            "{}",
            vector.bytes
        );
    }
}

fn any_rules() -> impl Strategy<Value = ReadRules> {
    prop_oneof![
        Just(ReadRules::claude_code()),
        Just(ReadRules::recommended())
    ]
}

proptest! {
    #[test]
    fn reads_never_panic_and_count_consistently(
        text in "(?s)[a\\r\\n\u{FEFF}é😀]{0,40}",
        offset in prop_oneof![Just(None), any::<u64>().prop_map(Some), (0u64..50).prop_map(Some)],
        limit in prop_oneof![Just(None), any::<i64>().prop_map(Some), (-5i64..50).prop_map(Some)],
        rules in any_rules(),
    ) {
        let request = ReadRequest { offset, limit, extension: None };
        if let Ok(read) = read_text(&text, &request, &rules) {
            prop_assert!(read.num_lines <= read.total_lines);
            prop_assert_eq!(read.notice.is_some(), read.slice.as_str(&text).is_empty());
            if read.notice.is_none() {
                let numbered = read.text.split('\n').count() as u64;
                prop_assert!(numbered >= read.num_lines);
            }
        }
    }

    #[test]
    fn any_utf8_reads_without_panicking(text in any::<String>(), rules in any_rules()) {
        let _ = read_text(&text, &ReadRequest::default(), &rules);
    }

    #[test]
    fn full_read_of_lf_text_is_the_text(text in "[ab\\n]{0,30}") {
        let read = read_text(&text, &ReadRequest::default(), &ReadRules::recommended()).unwrap();
        prop_assert_eq!(read.slice.as_str(&text), text.as_str());
        let read = read_text(&text, &ReadRequest::default(), &ReadRules::claude_code()).unwrap();
        prop_assert_eq!(read.slice.as_str(&text), text.as_str());
    }

    #[test]
    fn mention_windows_never_panic(start in any::<Option<u64>>(), end in any::<Option<u64>>(), rules in any_rules()) {
        let window = mention_window(start, end, &rules);
        if rules.swap_reversed_range {
            prop_assert!(window.limit.is_none_or(|limit| limit > 0));
        }
    }

    #[test]
    fn media_parsers_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64), prefix in 0usize..5, size in any::<u64>(), rules in any_rules()) {
        let magic: [&[u8]; 5] = [b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR", b"\xff\xd8\xff", b"GIF89a", b"RIFF\0\0\0\0WEBPVP8X", b"%PDF /Type /Page"];
        let mut input = magic[prefix].to_vec();
        input.extend_from_slice(&bytes);
        let info = image_info(&input);
        let plan = plan_image(info.as_ref(), size, &rules);
        prop_assert!(!plan.steps.is_empty());
        let _ = pdf_page_count(&input);
        let _ = plan_pdf("/p/a.pdf", &input, size, &rules);
    }
}
