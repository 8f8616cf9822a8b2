//! What the reliability suite (`tests/reliability`) and the app's «Данные» tests
//! (`src-tauri/tests/backup.rs`) both do to a data folder: a small tmpfs that fills up or turns
//! read-only, and a drafts database damaged the way a disk damages one. Each suite takes this
//! file in with `#[path]`, so that the two test the same faults.
//!
//! Mounting needs root, which the development machine and CI (a fresh Debian 12 machine, as
//! root) both have. Where mount is not permitted, `Mount::tmpfs` prints why and the case passes
//! without running: a file-size limit (`ulimit -f`) is no substitute, since SQLite sees `EFBIG`
//! rather than `ENOSPC` and the shared-memory file is not limited at all (docs/testing.md).

#![allow(
    dead_code,
    reason = "each suite that takes this file in uses part of it; the rest is the other's"
)]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A tmpfs mounted for one case, unmounted when dropped, however the test ends.
pub struct Mount {
    dir: tempfile::TempDir,
}

impl Mount {
    /// A tmpfs of `bytes`, or `None` (with the reason printed) where mounting is not permitted.
    pub fn tmpfs(bytes: u64) -> Option<Mount> {
        let dir = tempfile::tempdir().expect("a mount point");
        let output = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={bytes},mode=0700"),
                "tmpfs",
            ])
            .arg(dir.path())
            .output();
        match output {
            Ok(output) if output.status.success() => Some(Mount { dir }),
            Ok(output) => {
                eprintln!(
                    "skipped: cannot mount a tmpfs ({}); this case needs root, as in CI",
                    String::from_utf8_lossy(&output.stderr).trim()
                );
                None
            }
            Err(error) => {
                eprintln!("skipped: `mount` does not run ({error}); this case needs root");
                None
            }
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `mount -o remount,<options>`, which must succeed.
    pub fn remount(&self, options: &str) {
        let output = Command::new("mount")
            .args(["-o", &format!("remount,{options}")])
            .arg(self.path())
            .output()
            .expect("mount runs");
        assert!(output.status.success(), "remount {options}: {output:?}");
    }

    /// Fills the filesystem to the last byte with a file, and returns it.
    pub fn fill(&self) -> PathBuf {
        let filler = self.path().join("filler");
        let mut file = std::fs::File::create(&filler).expect("the filler is created");
        let block = vec![0x5A_u8; 64 * 1024];
        loop {
            match file.write(&block) {
                Ok(0) => break,
                Ok(_) => {}
                Err(error) if error.kind() == std::io::ErrorKind::StorageFull => break,
                Err(error) => panic!("filling the disk: {error}"),
            }
        }
        // The last partial block.
        for _ in 0..64 {
            if file.write(&block[..1024]).is_err() {
                break;
            }
        }
        filler
    }

    /// The files on the filesystem, sorted, with where they are.
    pub fn files(&self) -> Vec<PathBuf> {
        fn walk(folder: &Path, found: &mut Vec<PathBuf>) {
            for entry in std::fs::read_dir(folder).expect("the folder is read") {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    walk(&path, found);
                } else {
                    found.push(path);
                }
            }
        }
        let mut found = Vec::new();
        walk(self.path(), &mut found);
        found.sort();
        found
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        // Writable again first, so that the temporary folder inside can be removed.
        let _ = Command::new("mount")
            .args(["-o", "remount,rw"])
            .arg(self.path())
            .output();
        let unmounted = Command::new("umount")
            .arg(self.path())
            .status()
            .is_ok_and(|status| status.success());
        if !unmounted {
            // A process a failed assertion left behind still holds a file: detach now, the
            // kernel unmounts when it ends.
            let _ = Command::new("umount").arg("-l").arg(self.path()).status();
        }
    }
}

/// SQLite's page size in the drafts database (the store's default).
const PAGE: usize = 4096;

/// Overwrites with garbage the table leaf page holding `marker`, and returns the numbers of the
/// drafts that page held (descriptions that start «Черновик № N »).
pub fn overwrite_leaf_holding(database: &Path, marker: &str) -> Vec<u32> {
    let mut bytes = std::fs::read(database).expect("the database is read");
    let holds = |content: &[u8], text: &str| {
        content
            .windows(text.len())
            .any(|window| window == text.as_bytes())
    };
    let page = (1..bytes.len() / PAGE)
        .find(|&page| {
            let content = &bytes[page * PAGE..(page + 1) * PAGE];
            content[0] == 0x0D && holds(content, marker)
        })
        .expect("a table leaf page holds the marker");
    let content = page * PAGE..(page + 1) * PAGE;
    let held = (1..=100)
        .filter(|number| holds(&bytes[content.clone()], &format!("Черновик № {number} ")))
        .collect();
    for (offset, byte) in bytes[content].iter_mut().enumerate() {
        *byte = (offset * 7 + 13) as u8;
    }
    std::fs::write(database, bytes).expect("the database is written");
    held
}

/// Overwrites the drafts table's first page with garbage.
pub fn overwrite_drafts_root(database: &Path) {
    let root: i64 = rusqlite::Connection::open(database)
        .expect("the database opens")
        .query_row(
            "SELECT rootpage FROM sqlite_schema WHERE name = 'drafts'",
            [],
            |row| row.get(0),
        )
        .expect("the drafts table's root page");
    let mut bytes = std::fs::read(database).expect("the database is read");
    let start = (usize::try_from(root).expect("a page number") - 1) * PAGE;
    bytes[start..start + PAGE].fill(0xA5);
    std::fs::write(database, &bytes).expect("the database is written");
}
