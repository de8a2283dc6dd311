use alloc::rc::Rc;
use alloc::string::ToString;
use alloc::vec::Vec;

use super::*;

fn read(text: &str, offset: Option<u64>, limit: Option<i64>, rules: &ReadRules) -> TextRead {
    let request = ReadRequest {
        offset,
        limit,
        extension: None,
    };
    read_text(text, &request, rules).expect("within limits")
}

#[test]
fn trailing_newline_is_a_line_q16() {
    let original = read("a\nb\n", None, None, &ReadRules::claude_code());
    assert_eq!(original.text, "1\ta\n2\tb\n3\t");
    assert_eq!((original.num_lines, original.total_lines), (3, 3));
    assert_eq!(original.slice, SliceText::Source(0..4));
    let fixed = read("a\nb\n", None, None, &ReadRules::recommended());
    assert_eq!(fixed.text, "1\ta\n2\tb");
    assert_eq!((fixed.num_lines, fixed.total_lines), (2, 2));
    // The fixed slice keeps the final newline: a full read stores the file as it is.
    assert_eq!(fixed.slice, SliceText::Source(0..4));
}

#[test]
fn empty_file_warning_q17() {
    let original = read("", None, None, &ReadRules::claude_code());
    assert_eq!(
        original.notice,
        Some(ReadNotice::ShorterThanOffset {
            start_line: 1,
            total_lines: 1
        })
    );
    assert!(original.text.starts_with("<system-reminder>"));
    assert!(original.text.contains("(1)"));
    let mut only_q17 = ReadRules::claude_code();
    only_q17.warn_empty_file = true;
    assert_eq!(
        read("\u{FEFF}", None, None, &only_q17).notice,
        Some(ReadNotice::EmptyFile)
    );
    let fixed = read("", None, None, &ReadRules::recommended());
    assert_eq!(fixed.notice, Some(ReadNotice::EmptyFile));
    assert_eq!(fixed.total_lines, 0);
}

#[test]
fn bom_and_carriage_returns() {
    let rules = ReadRules::claude_code();
    let got = read("\u{FEFF}a\r\nb\r\n", None, None, &rules);
    assert_eq!(got.text, "1\ta\n2\tb\n3\t");
    assert_eq!(got.slice, SliceText::Owned("a\nb\n".into()));
    // Only one \r per line goes; addLineNumbers then splits on \r?\n once more.
    let got = read("a\r\r\nb", None, None, &rules);
    assert_eq!(got.slice, SliceText::Owned("a\r\nb".into()));
    assert_eq!(got.text, "1\ta\n2\tb");
    let got = read("a\r", None, None, &rules);
    assert_eq!(got.text, "1\ta");
    let fixed = read("a\r\nb\r\n", None, None, &ReadRules::recommended());
    assert_eq!(fixed.slice, SliceText::Owned("a\nb\n".into()));
    assert_eq!(fixed.text, "1\ta\n2\tb");
}

#[test]
fn ranges_and_offsets() {
    let rules = ReadRules::claude_code();
    let text = "l1\nl2\nl3\nl4\n";
    let got = read(text, Some(2), Some(2), &rules);
    assert_eq!(got.text, "2\tl2\n3\tl3");
    assert_eq!(got.slice.as_str(text), "l2\nl3");
    assert_eq!((got.start_line, got.num_lines, got.total_lines), (2, 2, 5));
    // offset 0: lineOffset 0, numbered from 0 (Q8's read).
    let got = read("x\ny", Some(0), None, &rules);
    assert_eq!(got.text, "0\tx\n1\ty");
    // A negative limit reads nothing (Q9's read).
    let got = read(text, Some(20), Some(-9), &rules);
    assert_eq!(
        got.notice,
        Some(ReadNotice::ShorterThanOffset {
            start_line: 20,
            total_lines: 5
        })
    );
    // Past the end.
    let got = read(text, Some(6), None, &rules);
    assert_eq!(got.num_lines, 0);
    assert!(got.notice.is_some());
    let got = read(text, Some(u64::MAX), Some(i64::MAX), &rules);
    assert_eq!(got.num_lines, 0);
    // The fixed slice of a ranged read keeps its line ends.
    let fixed = read(text, Some(2), Some(2), &ReadRules::recommended());
    assert_eq!(fixed.slice.as_str(text), "l2\nl3\n");
    assert_eq!(fixed.text, "2\tl2\n3\tl3");
}

#[test]
fn slice_shares_the_source_for_a_full_read() {
    let source: Rc<str> = Rc::from("a\nb");
    let got = read(&source, None, None, &ReadRules::claude_code());
    let shared = got.slice.share(&source);
    assert!(Rc::ptr_eq(&shared, &source));
    let ranged = read(&source, Some(2), None, &ReadRules::claude_code());
    assert_eq!(&*ranged.slice.share(&source), "b");
}

#[test]
fn size_cap_applies_only_without_a_limit() {
    let mut rules = ReadRules::claude_code();
    rules.limits.max_size_bytes = 4;
    let request = ReadRequest::default();
    let err = read_text("12345", &request, &rules).unwrap_err();
    assert_eq!(err, ReadError::FileTooLarge { size: 5, max: 4 });
    assert!(err.to_string().contains("(5 bytes)"));
    assert!(err.to_string().contains("(4 bytes)"));
    let ranged = ReadRequest {
        limit: Some(1),
        ..request
    };
    assert!(read_text("12345", &ranged, &rules).is_ok());
    let default_cap = "x".repeat(256 * 1024 + 1);
    let err = read_text(&default_cap, &request, &ReadRules::claude_code()).unwrap_err();
    assert!(err.to_string().contains("256KB"), "{err}");
}

#[test]
fn token_gate_on_the_profile_estimate() {
    let mut rules = ReadRules::claude_code();
    rules.limits.max_tokens = 2;
    let ok = ReadRequest::default();
    assert!(read_text("12345678", &ok, &rules).is_ok()); // 8 / 4 = 2
    let err = read_text("123456789012", &ok, &rules).unwrap_err();
    assert_eq!(
        err,
        ReadError::MaxFileReadTokenExceeded { tokens: 3, max: 2 }
    );
    assert!(err.to_string().contains("3 tokens") && err.to_string().contains("(2)"));
    // JSON counts two units per token in Claude Code's estimate.
    let json = ReadRequest {
        extension: Some("json"),
        ..ok
    };
    assert!(read_text("12345678", &json, &rules).is_err());
}

#[test]
fn legacy_line_format() {
    let mut rules = ReadRules::claude_code();
    rules.line_format = LineFormat::Legacy;
    assert_eq!(read("a\nb", None, None, &rules).text, "     1→a\n     2→b");
    assert_eq!(
        number_lines("x", 1_234_567, LineFormat::Legacy),
        "1234567→x"
    );
}

#[test]
fn mention_windows_golden_and_quirks() {
    let original = ReadRules::claude_code();
    let fixed = ReadRules::recommended();
    let window = |offset, limit| ReadWindow { offset, limit };
    // §3.7: #L10-20 → offset 10, limit 11; #L10 → offset 10, limit 1.
    for rules in [&original, &fixed] {
        assert_eq!(
            mention_window(Some(10), Some(20), rules),
            window(Some(10), Some(11))
        );
        assert_eq!(
            mention_window(Some(10), Some(10), rules),
            window(Some(10), Some(1))
        );
        assert_eq!(mention_window(None, None, rules), window(None, None));
        assert_eq!(
            mention_window(Some(10), None, rules),
            window(Some(10), None)
        );
    }
    // Q8
    assert_eq!(
        mention_window(Some(0), Some(0), &original),
        window(Some(0), None)
    );
    assert_eq!(
        mention_window(Some(0), Some(0), &fixed),
        window(Some(1), Some(1))
    );
    assert_eq!(
        mention_window(Some(0), Some(5), &fixed),
        window(Some(1), Some(5))
    );
    // Q9
    assert_eq!(
        mention_window(Some(20), Some(10), &original),
        window(Some(20), Some(-9))
    );
    assert_eq!(
        mention_window(Some(20), Some(10), &fixed),
        window(Some(10), Some(11))
    );
    // Extreme values saturate.
    assert_eq!(
        mention_window(Some(1), Some(u64::MAX), &original).limit,
        Some(i64::MAX)
    );
    assert_eq!(
        mention_window(Some(u64::MAX), Some(1), &original).limit,
        Some(i64::MIN)
    );
}

#[test]
fn reversed_mention_reads_nothing_under_the_original() {
    let rules = ReadRules::claude_code();
    let text = "1\n".repeat(30);
    let w = mention_window(Some(20), Some(10), &rules);
    let got = read(&text, w.offset, w.limit, &rules);
    assert_eq!(
        got.notice,
        Some(ReadNotice::ShorterThanOffset {
            start_line: 20,
            total_lines: 31
        })
    );
    let fixed = ReadRules::recommended();
    let w = mention_window(Some(20), Some(10), &fixed);
    assert_eq!(read(&text, w.offset, w.limit, &fixed).num_lines, 11);
}

#[test]
fn binary_extensions_and_devices() {
    for path in [
        "/a.zip",
        "/a.EXE",
        "/x/y.woff2",
        "/a.tar.gz",
        "/a.docx",
        "/a.wasm",
    ] {
        assert!(is_binary_extension(path), "{path}");
        assert!(matches!(
            classify(path, b""),
            Err(ReadError::BinaryExtension { .. })
        ));
    }
    for path in [
        "/a.pdf",
        "/a.png",
        "/a.JPG",
        "/a.jpeg",
        "/a.gif",
        "/a.webp",
        "/a.rs",
        "/Makefile",
        "/.gitignore",
    ] {
        assert!(!is_binary_extension(path), "{path}");
    }
    for path in [
        "/dev/zero",
        "/dev/random",
        "/dev/urandom",
        "/dev/full",
        "/dev/stdin",
        "/dev/tty",
        "/dev/console",
        "/dev/stdout",
        "/dev/stderr",
        "/dev/fd/0",
        "/dev/fd/1",
        "/dev/fd/2",
        "/proc/1/fd/0",
        "/proc/self/fd/2",
    ] {
        assert!(is_blocked_device(path), "{path}");
        assert!(matches!(
            classify(path, b""),
            Err(ReadError::BlockedDevice { .. })
        ));
    }
    for path in [
        "/dev/null",
        "/dev/fd/3",
        "/proc/self/fd/3",
        "/proc//fd/0",
        "/proc/1/fd/0/x",
    ] {
        assert!(!is_blocked_device(path), "{path}");
    }
    assert_eq!(classify("/a.pdf", b""), Ok(FileKind::Pdf));
    assert_eq!(classify("/a.ipynb", b"{}"), Ok(FileKind::Notebook));
}

fn png(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    bytes.extend_from_slice(&width.to_be_bytes());
    bytes.extend_from_slice(&height.to_be_bytes());
    bytes
}

#[test]
fn image_dimensions_from_headers() {
    let info = |bytes: &[u8]| image_info(bytes).map(|i| (i.format, i.dimensions));
    assert_eq!(
        info(&png(640, 480)),
        Some((ImageFormat::Png, Some((640, 480))))
    );
    assert_eq!(
        info(b"GIF87a\x01\x00\x02\x00"),
        Some((ImageFormat::Gif, Some((1, 2))))
    );
    // JPEG: SOI, an APP0 segment, then SOF2 (progressive) with height 300, width 400.
    let jpeg = b"\xff\xd8\xff\xe0\x00\x04ab\xff\xc2\x00\x11\x08\x01\x2c\x01\x90\x03";
    assert_eq!(info(jpeg), Some((ImageFormat::Jpeg, Some((400, 300)))));
    // A DHT (C4) before the frame is skipped, not read as a frame.
    let jpeg = b"\xff\xd8\xff\xc4\x00\x03a\xff\xc0\x00\x11\x08\x00\x0a\x00\x14\x03";
    assert_eq!(info(jpeg), Some((ImageFormat::Jpeg, Some((20, 10)))));
    let mut vp8 = b"RIFF\0\0\0\0WEBPVP8 \0\0\0\0\0\0\0\x9d\x01\x2a".to_vec();
    vp8.extend_from_slice(&[0x20, 0x03, 0x58, 0x42]); // 800, 600 with scale bits set
    assert_eq!(info(&vp8), Some((ImageFormat::WebP, Some((800, 600)))));
    let (w, h) = (1000u32 - 1, 500u32 - 1);
    let bits = w | (h << 14);
    let mut vp8l = b"RIFF\0\0\0\0WEBPVP8L\0\0\0\0\x2f".to_vec();
    vp8l.extend_from_slice(&bits.to_le_bytes());
    assert_eq!(info(&vp8l), Some((ImageFormat::WebP, Some((1000, 500)))));
    let mut vp8x = b"RIFF\0\0\0\0WEBPVP8X\0\0\0\0\0\0\0\0".to_vec();
    vp8x.extend_from_slice(&[0x3f, 0x1f, 0x00, 0x0f, 0x27, 0x00]); // 8000, 10000
    assert_eq!(info(&vp8x), Some((ImageFormat::WebP, Some((8000, 10000)))));
    assert_eq!(info(b"\xff\xd8\xff"), Some((ImageFormat::Jpeg, None)));
    assert_eq!(info(b"RIFF\0\0\0\0WAVE"), None);
}

#[test]
fn image_ladder_decisions() {
    let original = ReadRules::claude_code();
    let fixed = ReadRules::recommended();
    let small = image_info(&png(800, 600));
    let plan = plan_image(small.as_ref(), 100_000, &fixed);
    assert_eq!(plan.steps.len(), 1);
    assert_eq!(plan.chosen().map(|s| s.action), Some(ImageAction::Keep));
    assert_eq!(plan.tokens(), 640); // 800 × 600 / 750
    assert_eq!(
        plan_image(small.as_ref(), 100_000, &original).tokens(),
        2000
    ); // Q44
       // A keepable image above 1568 px is charged as the API's scaled-down copy.
    let wide = image_info(&png(3136, 1000));
    assert_eq!(
        plan_image(wide.as_ref(), 100_000, &fixed).tokens(),
        1568 * 500 / 750 + 1
    );
    // Over 8000 px: resized even when small in bytes.
    let huge = image_info(&png(9000, 100));
    let plan = plan_image(huge.as_ref(), 10_000, &fixed);
    assert_eq!(
        plan.chosen().map(|s| (s.action, s.dimensions)),
        Some((ImageAction::ResizePng, Some((1568, 17))))
    );
    // A JPEG over the byte limit goes to the JPEG steps (no PNG step).
    let jpeg = ImageInfo {
        format: ImageFormat::Jpeg,
        dimensions: Some((6000, 4000)),
    };
    let plan = plan_image(Some(&jpeg), 20_000_000, &fixed);
    assert!(!plan.steps[0].accepted);
    assert_eq!(
        plan.chosen().map(|s| s.action),
        Some(ImageAction::Jpeg { quality: 80 })
    );
    assert!(plan.steps.iter().all(|s| !s.reason.is_empty()));
    // Tight limits force the final resize, which always fits.
    let mut tight = fixed.clone();
    tight.limits.image.max_base64_bytes = 4000;
    let plan = plan_image(Some(&jpeg), 20_000_000, &tight);
    let chosen = plan.chosen().expect("forced step");
    assert_eq!(chosen.action, ImageAction::ForcedResize { quality: 20 });
    assert!(chosen.estimated_bytes.div_ceil(3) * 4 <= 4000);
    let (w, h) = chosen.dimensions.unwrap();
    assert!(w > h && w > 0 && h > 0);
    // Unknown dimensions: kept when small, refused when not.
    assert!(plan_image(None, 1000, &fixed).chosen().is_some());
    assert!(plan_image(None, 10_000_000, &fixed).chosen().is_none());
}

#[test]
fn pdf_pages_and_outcomes() {
    assert_eq!(
        pdf_page_count(b"/Type /Page /Type /Pages /Type/Page\n/Type\t\n/Page"),
        Some(3)
    );
    assert_eq!(pdf_page_count(b"/Type /Pagesx"), None);
    assert_eq!(pdf_page_count(b"/Type"), None);
    let eleven = b"/Type /Page ".repeat(11);
    let original = ReadRules::claude_code();
    let fixed = ReadRules::recommended();
    let plan = plan_pdf("/p/a.pdf", &eleven, 100, &original);
    assert_eq!(
        (plan.page_count, plan.outcome),
        (Some(11), PdfOutcome::Reference)
    );
    let ten = b"/Type /Page ".repeat(10);
    let plan = plan_pdf("/p/a.pdf", &ten, 2048, &original);
    assert_eq!(
        plan.outcome,
        PdfOutcome::Note {
            text: "PDF file read: /p/a.pdf (2KB)".into()
        }
    );
    let plan = plan_pdf("/p/a.pdf", &ten, 2048, &fixed);
    assert_eq!((plan.outcome, plan.tokens), (PdfOutcome::Document, 30_000));
    let mut flat = fixed.clone();
    flat.media_tokens_from_size = false;
    assert_eq!(plan_pdf("/p/a.pdf", &ten, 2048, &flat).tokens, 2000);
    // No page objects: pages estimated from the size, 100 KiB each.
    assert_eq!(
        plan_pdf("/p/a.pdf", b"", 1_024_000, &original).effective_page_count,
        10
    );
    assert_eq!(
        plan_pdf("/p/a.pdf", b"", 1_024_001, &original).outcome,
        PdfOutcome::Reference
    );
}

#[test]
fn listings_sort_cap_and_mark() {
    let names: Vec<alloc::string::String> =
        (0..1005).rev().map(|i| alloc::format!("f{i:04}")).collect();
    let mut entries: Vec<DirEntry<'_>> = names
        .iter()
        .map(|name| DirEntry {
            name,
            is_dir: false,
        })
        .collect();
    entries.push(DirEntry {
        name: ".",
        is_dir: true,
    });
    entries.push(DirEntry {
        name: "..",
        is_dir: true,
    });
    let listing = list_directory(&entries, &ReadRules::claude_code());
    let lines: Vec<&str> = listing.split('\n').collect();
    assert_eq!(lines.len(), 1001);
    assert_eq!(lines[0], "f0000");
    assert_eq!(lines[999], "f0999");
    assert_eq!(lines[1000], "… and 5 more entries");
    let dirs = [
        DirEntry {
            name: "é",
            is_dir: true,
        },
        DirEntry {
            name: "z",
            is_dir: false,
        },
    ];
    assert_eq!(list_directory(&dirs, &ReadRules::claude_code()), "z\né");
    assert_eq!(list_directory(&dirs, &ReadRules::recommended()), "z\né/");
    assert_eq!(list_directory(&[], &ReadRules::recommended()), "");
}
