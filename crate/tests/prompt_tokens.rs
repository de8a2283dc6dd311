//! The token meter beside a prompt editor counts as the profile's requests do: for every
//! preset, `Profile::prompt_tokens` equals the tokens of the prompt's block in the request a
//! session sends for it.

use context_assembly::session::{Session, SessionConfig, SessionOptions};
use context_assembly::{Profile, ProfileName};

const PROMPTS: [&str; 4] = [
    "fix @src/a.ts",
    "Regarde @\"notes de réunion.md\" et dis-moi 😀 ce qui \"cloche\"\n\tmerci",
    "日本語のテキストを短くして",
    "{\"json\": [1, 2, 3]} <b>escaped</b> \\ back\\slash",
];

#[test]
fn the_meter_equals_the_prompt_blocks_tokens_under_every_profile() {
    for name in ProfileName::ALL {
        for prompt in PROMPTS {
            let profile = Profile::preset(name);
            let expected = profile.prompt_tokens(prompt);
            let mut session = Session::new(SessionOptions {
                profile,
                cwd: "/p".into(),
                home: None,
                config: SessionConfig::default(),
            })
            .unwrap();
            session.write_file("src/a.ts", "let a = 1;\n", 1).unwrap();
            let request = session
                .submit(prompt, 2)
                .request
                .expect("a prompt sends a request");
            let blocks = request.messages.iter().flat_map(|message| &message.content);
            let prompt_blocks: Vec<u64> = blocks
                .filter(|block| block.source == "prompt")
                .map(|block| block.tokens)
                .collect();
            assert_eq!(prompt_blocks, [expected], "{name}: {prompt:?}");
        }
    }
}
