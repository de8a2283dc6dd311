use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::*;

fn text(vfs: &Vfs, path: &str) -> String {
    match vfs.read(path) {
        Ok(Content::Text(text)) => String::from(&*text),
        other => panic!("{path}: {other:?}"),
    }
}

fn code<T: core::fmt::Debug>(result: Result<T, FsError>) -> &'static str {
    result.unwrap_err().code()
}

fn names(vfs: &Vfs, path: &str) -> Vec<String> {
    let entries = vfs.list_dir(path).unwrap();
    entries.into_iter().map(|entry| entry.name).collect()
}

fn mtime(vfs: &Vfs, path: &str) -> u64 {
    vfs.stat(path).unwrap().mtime_ms
}

#[test]
fn every_operation_refuses_a_path_that_is_not_canonical() {
    let mut vfs = Vfs::new();
    vfs.mkdir("/p", 1).unwrap();
    for bad in [
        "", "p", "./p", "/p/", "/p/.", "/p/../p", "//p", "/p//x", "/p/a\0b",
    ] {
        let invalid = |result: Result<(), FsError>| {
            let err = result.unwrap_err();
            assert_eq!(err.kind, FsErrorKind::InvalidPath, "{bad:?}");
            assert!(err.path == bad || err.dest.as_deref() == Some(bad), "{err}");
            assert!(err.to_string().contains("absolute and canonical"), "{err}");
        };
        invalid(vfs.write_file(bad, Content::from("x"), 2));
        invalid(vfs.delete(bad, 2));
        invalid(vfs.mkdir(bad, 2));
        invalid(vfs.rename(bad, "/q", 2));
        invalid(vfs.rename("/p", bad, 2));
        invalid(vfs.set_transient_error(bad, Some(TransientError::Busy)));
        invalid(vfs.stat(bad).map(|_| ()));
        invalid(vfs.read(bad).map(|_| ()));
        invalid(vfs.list_dir(bad).map(|_| ()));
    }
    assert_eq!(names(&vfs, "/"), ["p"]);
}

#[test]
fn write_creates_parents_and_sets_mtimes() {
    let mut vfs = Vfs::new();
    vfs.write_file("/p/src/a.ts", Content::from("a"), 10)
        .unwrap();
    assert_eq!(mtime(&vfs, "/"), 10);
    assert_eq!(mtime(&vfs, "/p"), 10);
    assert_eq!(mtime(&vfs, "/p/src"), 10);
    vfs.write_file("/p/src/a.ts", Content::from("bb"), 20)
        .unwrap();
    assert_eq!(mtime(&vfs, "/p/src/a.ts"), 20);
    assert_eq!(
        mtime(&vfs, "/p/src"),
        10,
        "overwriting does not change the directory"
    );
    vfs.write_file("/p/src/b.ts", Content::from(""), 30)
        .unwrap();
    assert_eq!(mtime(&vfs, "/p/src"), 30, "a new entry does");
    assert_eq!(text(&vfs, "/p/src/a.ts"), "bb");
    assert_eq!(vfs.stat("/p/src").unwrap().size, 0);
}

#[test]
fn write_refuses_directories_and_files_as_parents() {
    let mut vfs = Vfs::new();
    vfs.write_file("/p/f", Content::from("x"), 1).unwrap();
    assert_eq!(code(vfs.write_file("/", Content::from(""), 2)), "EISDIR");
    assert_eq!(code(vfs.write_file("/p", Content::from(""), 2)), "EISDIR");
    assert_eq!(
        code(vfs.write_file("/p/f/g/h", Content::from(""), 2)),
        "ENOTDIR"
    );
    assert_eq!(names(&vfs, "/p"), ["f"]);
    assert_eq!(mtime(&vfs, "/p"), 1);
}

#[test]
fn contents_are_shared_and_invalid_utf8_is_binary() {
    let mut vfs = Vfs::new();
    let shared: Rc<str> = Rc::from("shared text");
    vfs.write_file("/a", Content::from(Rc::clone(&shared)), 1)
        .unwrap();
    let Ok(Content::Text(read)) = vfs.read("/a") else {
        panic!("text expected");
    };
    assert!(Rc::ptr_eq(&read, &shared), "read gives the same allocation");
    vfs.write_file("/b", Content::from(vec![0xff, 0xfe, b'a']), 1)
        .unwrap();
    assert_eq!(
        vfs.read("/b").unwrap(),
        Content::Binary(Rc::from(&[0xff, 0xfe, b'a'][..]))
    );
    assert_eq!(vfs.stat("/b").unwrap().size, 3);
    assert_eq!(Content::from(&b"ok"[..]).as_text(), Some("ok"));
    assert!(Content::from(String::new()).is_empty());
}

#[test]
fn total_bytes_follows_every_change() {
    let mut vfs = Vfs::new();
    vfs.write_file("/a", Content::from("12345"), 1).unwrap();
    vfs.write_file("/d/b", Content::from("123"), 1).unwrap();
    assert_eq!(vfs.total_bytes(), 8);
    vfs.write_file("/a", Content::from("1"), 2).unwrap();
    assert_eq!(vfs.total_bytes(), 4);
    vfs.rename("/d/b", "/a", 3).unwrap();
    assert_eq!(vfs.total_bytes(), 3, "the replaced file is gone");
    vfs.delete("/a", 4).unwrap();
    assert_eq!(vfs.total_bytes(), 0);
}

#[test]
fn delete_files_and_empty_directories_only() {
    let mut vfs = Vfs::new();
    vfs.write_file("/p/d/f", Content::from("x"), 1).unwrap();
    assert_eq!(code(vfs.delete("/", 2)), "EBUSY");
    assert_eq!(code(vfs.delete("/p/d", 2)), "ENOTEMPTY");
    assert_eq!(code(vfs.delete("/p/x", 2)), "ENOENT");
    assert_eq!(code(vfs.delete("/p/d/f/g", 2)), "ENOTDIR");
    assert_eq!(code(vfs.delete("/q/x", 2)), "ENOENT");
    vfs.delete("/p/d/f", 3).unwrap();
    assert_eq!(mtime(&vfs, "/p/d"), 3);
    vfs.delete("/p/d", 4).unwrap();
    assert_eq!(mtime(&vfs, "/p"), 4);
    assert!(names(&vfs, "/p").is_empty());
    let err = vfs.delete("/p/d", 5).unwrap_err();
    assert_eq!(
        err.to_string(),
        "ENOENT: no such file or directory, unlink '/p/d'"
    );
}

#[test]
fn mkdir_through_a_file_fails() {
    let mut vfs = Vfs::new();
    vfs.write_file("/f", Content::from(""), 1).unwrap();
    assert_eq!(code(vfs.mkdir("/f/d", 2)), "ENOTDIR");
    vfs.mkdir("/", 2).unwrap();
    vfs.mkdir("/d", 3).unwrap();
    assert_eq!(mtime(&vfs, "/"), 3);
    assert_eq!(vfs.stat("/d").unwrap().kind, EntryKind::Directory);
}

#[test]
fn rename_moves_a_subtree_with_its_contents_and_mtimes() {
    let mut vfs = Vfs::new();
    vfs.write_file("/p/src/a.ts", Content::from("a"), 1)
        .unwrap();
    vfs.write_file("/p/src/deep/b.ts", Content::from("b"), 2)
        .unwrap();
    vfs.mkdir("/q", 3).unwrap();
    vfs.rename("/p/src", "/q/lib", 9).unwrap();
    assert_eq!(text(&vfs, "/q/lib/a.ts"), "a");
    assert_eq!(text(&vfs, "/q/lib/deep/b.ts"), "b");
    assert_eq!(mtime(&vfs, "/q/lib/deep/b.ts"), 2);
    assert_eq!((mtime(&vfs, "/p"), mtime(&vfs, "/q")), (9, 9));
    assert_eq!(code(vfs.stat("/p/src")), "ENOENT");
    assert!(names(&vfs, "/p").is_empty());
}

#[test]
fn rename_replaces_a_file_or_an_empty_directory() {
    let mut vfs = Vfs::new();
    vfs.write_file("/p/a", Content::from("new"), 5).unwrap();
    vfs.write_file("/p/b", Content::from("old"), 1).unwrap();
    vfs.rename("/p/a", "/p/b", 6).unwrap();
    assert_eq!(text(&vfs, "/p/b"), "new");
    assert_eq!(mtime(&vfs, "/p/b"), 5, "the moved file keeps its mtime");
    assert_eq!(names(&vfs, "/p"), ["b"]);
    vfs.mkdir("/p/d", 7).unwrap();
    vfs.mkdir("/p/e", 7).unwrap();
    vfs.rename("/p/d", "/p/e", 8).unwrap();
    assert_eq!(names(&vfs, "/p"), ["b", "e"]);
    vfs.rename("/p/b", "/p/b", 9).unwrap();
    assert_eq!(text(&vfs, "/p/b"), "new");
}

#[test]
fn rename_errors_leave_everything_in_place() {
    let mut vfs = Vfs::new();
    vfs.write_file("/p/f", Content::from("f"), 1).unwrap();
    vfs.write_file("/p/d/x", Content::from("x"), 1).unwrap();
    vfs.mkdir("/p/e", 1).unwrap();
    let cases = [
        ("/p/missing", "/p/g", "ENOENT"),
        ("/p/f", "/p/none/g", "ENOENT"),
        ("/p/f", "/p/f/g", "ENOTDIR"),
        ("/p/f", "/p/e", "EISDIR"),
        ("/p/e", "/p/f", "ENOTDIR"),
        ("/p/e", "/p/d", "ENOTEMPTY"),
        ("/p/d", "/p/d/sub", "EINVAL"),
        ("/p/d/x", "/p", "EISDIR"),
        ("/p/e/../d", "/p/e", "ERR_INVALID_ARG_VALUE"),
        ("/", "/q", "EBUSY"),
        ("/p", "/", "EBUSY"),
    ];
    for (from, to, expected) in cases {
        let err = vfs.rename(from, to, 2).unwrap_err();
        assert_eq!(err.code(), expected, "{from} -> {to}");
        assert_eq!(err.dest.as_deref(), Some(to));
    }
    assert_eq!(names(&vfs, "/p"), ["d", "e", "f"]);
    assert_eq!(text(&vfs, "/p/d/x"), "x");
    assert_eq!(mtime(&vfs, "/p"), 1);
}

#[test]
fn transient_errors_hide_one_path_until_cleared() {
    let mut vfs = Vfs::new();
    vfs.write_file("/p/a", Content::from("a"), 1).unwrap();
    vfs.set_transient_error("/p", Some(TransientError::PermissionDenied))
        .unwrap();
    assert_eq!(code(vfs.list_dir("/p")), "EACCES");
    assert_eq!(code(vfs.stat("/p")), "EACCES");
    assert_eq!(text(&vfs, "/p/a"), "a", "children are not affected");
    vfs.set_transient_error("/p/a", Some(TransientError::Busy))
        .unwrap();
    let err = vfs.read("/p/a").unwrap_err();
    assert_eq!(
        err.to_string(),
        "EBUSY: resource busy or locked, open '/p/a'"
    );
    vfs.write_file("/p/a", Content::from("b"), 2).unwrap();
    vfs.set_transient_error("/p/a", None).unwrap();
    vfs.set_transient_error("/p", None).unwrap();
    assert_eq!(text(&vfs, "/p/a"), "b");
    assert_eq!(names(&vfs, "/p"), ["a"]);
    vfs.set_transient_error("/p/a", None).unwrap();
}

#[test]
fn reading_and_listing_the_wrong_kind() {
    let mut vfs = Vfs::new();
    vfs.write_file("/p/f", Content::from(""), 1).unwrap();
    let err = vfs.list_dir("/p/f").unwrap_err();
    assert_eq!(err.to_string(), "ENOTDIR: not a directory, scandir '/p/f'");
    assert_eq!(code(vfs.list_dir("/q")), "ENOENT");
    assert_eq!(code(vfs.read("/")), "EISDIR");
    assert_eq!(code(vfs.read("/p/f/x")), "ENOTDIR");
    let entries = vfs.list_dir("/").unwrap();
    assert_eq!(
        entries,
        [DirEntry {
            name: "p".into(),
            kind: EntryKind::Directory
        }]
    );
}

#[test]
fn a_very_deep_tree_is_dropped_without_recursion() {
    let mut vfs = Vfs::new();
    let depth = 100_000;
    let mut path = String::with_capacity(depth * 2 + 2);
    for _ in 0..depth {
        path.push_str("/d");
    }
    path.push_str("/f");
    vfs.write_file(&path, Content::from("x"), 1).unwrap();
    assert_eq!(text(&vfs, &path), "x");
    drop(vfs);
    assert_eq!(format!("{}", Syscall::Mkdir.as_str()), "mkdir");
}
