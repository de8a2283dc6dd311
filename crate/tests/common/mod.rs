//! Helpers the integration tests share: a session over an empty workspace, and the agent's
//! Read call. Each test file uses a part of them.
#![allow(dead_code)]

use context_assembly::session::{
    ResponseBlock, Session, SessionConfig, SessionOptions, ToolCall, ToolInvocation,
};
use context_assembly::Profile;

/// A session under `profile` in `/p`, with `home` as the user's home directory.
pub fn session_in(profile: Profile, home: Option<&str>, config: SessionConfig) -> Session {
    Session::new(SessionOptions {
        profile,
        cwd: "/p".into(),
        home: home.map(String::from),
        config,
    })
    .expect("valid options")
}

/// The agent's Read of the whole of `path`, as call `id`.
pub fn read(id: &str, path: &str) -> ResponseBlock {
    ResponseBlock::ToolUse(ToolCall {
        id: Some(id.into()),
        name: "Read".into(),
        input: format!("{{\"file_path\":\"{path}\"}}"),
        invocation: ToolInvocation::Read {
            file_path: path.into(),
            offset: None,
            limit: None,
        },
    })
}
