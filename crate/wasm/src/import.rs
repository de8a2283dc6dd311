//! Session logs in: `importSession` for a log held whole, `SessionImport` for one streamed in
//! chunks (a large file read with `File.stream()`), both over the core's importer.

use context_assembly::import::{import_session_reporting, LogFormat, SessionImporter};
use core::str::FromStr;
use js_sys::JsString;
use wasm_bindgen::prelude::*;

use crate::args::{self, Options};
use crate::{access, export, Failure};

/// The most bytes one `pushChunk` takes: a reader's chunks are far smaller.
const MAX_CHUNK_BYTES: usize = 64 << 20;

/// The format option: `None` lets the importer recognise it from the first lines.
fn format_option(options: &Options) -> Result<Option<LogFormat>, Failure> {
    let name = options.string("format")?;
    Ok(name.as_deref().map(LogFormat::from_str).transpose()?)
}

/// A Claude Code or Codex session log (JSON lines) as a scenario, with the usage the provider
/// recorded for each request and warnings for what was left out.
#[wasm_bindgen(js_name = importSession, unchecked_return_type = "ImportResult")]
pub fn import_session_js(
    text: JsString,
    #[wasm_bindgen(unchecked_optional_param_type = "ImportSessionOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    export("importSession", || {
        let text = args::text("text", &text)?;
        let format = format_option(&Options::parse(&options, &["format", "onProgress"])?)?;
        let callback = args::progress_callback(&options)?;
        let mut progress = |done| args::report_progress(callback.as_ref(), done, "byte");
        Ok(import_session_reporting(&text, format, &mut progress)?)
    })
}

/// A session log read in chunks: memory stays bounded by what the scenario keeps, whatever
/// the file's size, and by the per-line limit whatever its lines' lengths (a longer line is
/// refused with a warning, never held whole).
#[wasm_bindgen]
pub struct SessionImport(Option<SessionImporter>);

#[wasm_bindgen]
impl SessionImport {
    /// A new import; `options.format` as for `importSession`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "ImportOptions")] options: JsValue,
    ) -> Result<SessionImport, JsValue> {
        let format = Options::parse(&options, &["format"])
            .and_then(|options| format_option(&options))
            .map_err(|failure| failure.thrown("SessionImport"))?;
        Ok(SessionImport(Some(SessionImporter::new(format))))
    }

    /// The next bytes of the log; a chunk may end anywhere, even inside a character.
    #[wasm_bindgen(js_name = pushChunk)]
    pub fn push_chunk(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] chunk: JsValue,
    ) -> Result<(), JsValue> {
        export("pushChunk", || {
            let bytes = access::uint8_bytes("argument `chunk`", &chunk, MAX_CHUNK_BYTES)?
                .ok_or_else(|| Failure::new("argument `chunk` must be a Uint8Array".into()))?;
            self.importer()?.push_chunk(&bytes);
            Ok(())
        })
        .map(drop)
    }

    /// How far the import has got: complete lines and bytes read.
    #[wasm_bindgen(unchecked_return_type = "ImportProgress")]
    pub fn progress(&self) -> Result<JsValue, JsValue> {
        export("progress", || match &self.0 {
            Some(importer) => Ok(importer.progress()),
            None => Err(finished()),
        })
    }

    /// The result; the import is over after it, and any later call throws.
    #[wasm_bindgen(unchecked_return_type = "ImportResult")]
    pub fn finish(&mut self) -> Result<JsValue, JsValue> {
        export("finish", || {
            let importer = self.0.take().ok_or_else(finished)?;
            Ok(importer.finish()?)
        })
    }
}

impl SessionImport {
    fn importer(&mut self) -> Result<&mut SessionImporter, Failure> {
        self.0.as_mut().ok_or_else(finished)
    }
}

fn finished() -> Failure {
    Failure::new("this import is finished: start a new SessionImport".into())
}
