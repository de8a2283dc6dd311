//! PDFs: the page count from the page objects, and what a mention of one sends
//! (spec/claude-code.md §3.7 step 3, §3.9, Q19, Q44).

use alloc::string::String;
use memchr::memmem;

use super::{format_file_size, ReadRules};

/// Tokens per PDF page when estimated from pages (Q44 fixed): the top of the 1,500–3,000
/// tokens per page Anthropic's PDF guide gives, so the estimate errs high.
const TOKENS_PER_PAGE: u64 = 3000;

/// Counts the page objects of a PDF: each `/Type /Page` not followed by `s` (`/Pages` is
/// the page tree), with any PDF whitespace (or none) between `/Type` and `/Page`.
/// `None` when there is none (not a PDF, or its objects are compressed).
///
/// # Example
/// ```
/// use context_assembly::read::pdf_page_count;
/// let pdf = b"<< /Type /Pages /Count 2 >> << /Type/Page >> << /Type\r\n /Page/Parent 1 0 R >>";
/// assert_eq!(pdf_page_count(pdf), Some(2));
/// assert_eq!(pdf_page_count(b"%PDF-1.7 (compressed object streams)"), None);
/// ```
pub fn pdf_page_count(bytes: &[u8]) -> Option<u64> {
    let mut count = 0u64;
    for at in memmem::find_iter(bytes, b"/Type") {
        let rest = bytes.get(at + 5..).unwrap_or(&[]);
        let gap = rest
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'\0'))
            .count();
        let rest = rest.get(gap..).unwrap_or(&[]);
        if rest.starts_with(b"/Page") && rest.get(5) != Some(&b's') {
            count += 1;
        }
    }
    (count > 0).then_some(count)
}

/// What a mentioned PDF becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "camelCase"))]
pub enum PdfOutcome {
    /// Too many pages: a `pdf_reference` telling the model to read it by pages.
    Reference,
    /// A one-line note that the PDF was read; its contents are dropped (Q19).
    Note {
        /// The note, in our words.
        text: String,
    },
    /// The document itself is forwarded (Q19 fixed).
    Document,
}

/// The decision for a mentioned PDF.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct PdfPlan {
    /// Pages counted in the file, if any were found.
    pub page_count: Option<u64>,
    /// `page_count ?? ceil(size / pdf_bytes_per_page)`.
    pub effective_page_count: u64,
    /// What is sent.
    pub outcome: PdfOutcome,
    /// Tokens charged for what is sent: 0 for a reference (its text is rendered elsewhere),
    /// 0 for the note's text (left to the text estimate), 2000 flat for a document (Q44) or
    /// 3000 per page with `media_tokens_from_size`.
    pub tokens: u64,
}

/// Decides what a mention of the PDF at `path` sends (§3.7 step 3, §3.9): more than
/// `pdf_inline_max_pages` pages → a reference; otherwise the one-line note (Q19), or the
/// document with `forward_small_pdfs`.
///
/// # Example
/// ```
/// use context_assembly::read::{plan_pdf, PdfOutcome, ReadRules};
/// // No page objects found: 1.5 MB counts as ceil(1,500,000 / 102,400) = 15 pages.
/// let plan = plan_pdf("/p/big.pdf", b"%PDF", 1_500_000, &ReadRules::claude_code());
/// assert_eq!((plan.page_count, plan.effective_page_count), (None, 15));
/// assert_eq!(plan.outcome, PdfOutcome::Reference);
/// let small = plan_pdf("/p/a.pdf", b"/Type /Page", 2048, &ReadRules::claude_code());
/// assert!(matches!(small.outcome, PdfOutcome::Note { .. }));
/// ```
pub fn plan_pdf(path: &str, bytes: &[u8], size: u64, rules: &ReadRules) -> PdfPlan {
    let limits = &rules.limits;
    let page_count = pdf_page_count(bytes);
    let effective_page_count =
        page_count.unwrap_or_else(|| size.div_ceil(limits.pdf_bytes_per_page.max(1)));
    let (outcome, tokens) = if effective_page_count > limits.pdf_inline_max_pages {
        (PdfOutcome::Reference, 0)
    } else if rules.forward_small_pdfs {
        let tokens = if rules.media_tokens_from_size {
            effective_page_count.saturating_mul(TOKENS_PER_PAGE)
        } else {
            limits.image.flat_tokens
        };
        (PdfOutcome::Document, tokens)
    } else {
        let text = alloc::format!("PDF file read: {path} ({})", format_file_size(size));
        (PdfOutcome::Note { text }, 0)
    };
    PdfPlan {
        page_count,
        effective_page_count,
        outcome,
        tokens,
    }
}
