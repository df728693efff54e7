//! The exported project as a `.zip` archive.

use super::project::Project;

/// The project as a `.zip` archive (stored, uncompressed: a few kilobytes of text), its files
/// in a folder named after the project.
///
/// Written here rather than with a crate: storing three files takes a CRC and two headers each.
/// Measured in a wasm built as the page is (opt-level "z", fat LTO, gzip -9): this writer and its
/// CRC are 8.6 KB with the code around them; with `crc32fast` for the CRC 27.5 KB (its
/// slice-by-16 tables), with the `zip` crate (9.1, no default features, `Stored`) 58.3 KB. The
/// export test opens the archive with Python's `zipfile`, which checks every CRC.
pub fn zip(project: &Project) -> Vec<u8> {
    let mut archive = Vec::new();
    let mut directory = Vec::new();
    let entries = project.files.len() as u16;
    for file in &project.files {
        let path = format!("{}/{}", project.name, file.path);
        let data = file.text.as_bytes();
        let crc = crc32(data);
        let offset = archive.len() as u32;
        // Local file header: version 2.0, no flags, stored, no time, sizes, name.
        archive.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        archive.extend_from_slice(&[20, 0, 0, 0, 0, 0, 0, 0, 0x21, 0]);
        archive.extend_from_slice(&crc.to_le_bytes());
        archive.extend_from_slice(&(data.len() as u32).to_le_bytes());
        archive.extend_from_slice(&(data.len() as u32).to_le_bytes());
        archive.extend_from_slice(&(path.len() as u16).to_le_bytes());
        archive.extend_from_slice(&0u16.to_le_bytes());
        archive.extend_from_slice(path.as_bytes());
        archive.extend_from_slice(data);
        // Its central directory entry.
        directory.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        // Made by Unix (3) zip 2.0, so the file mode below is read.
        directory.extend_from_slice(&[20, 3, 20, 0, 0, 0, 0, 0, 0, 0, 0x21, 0]);
        directory.extend_from_slice(&crc.to_le_bytes());
        directory.extend_from_slice(&(data.len() as u32).to_le_bytes());
        directory.extend_from_slice(&(data.len() as u32).to_le_bytes());
        directory.extend_from_slice(&(path.len() as u16).to_le_bytes());
        directory.extend_from_slice(&[0; 8]);
        directory.extend_from_slice(&0o100_644u32.wrapping_shl(16).to_le_bytes());
        directory.extend_from_slice(&offset.to_le_bytes());
        directory.extend_from_slice(path.as_bytes());
    }
    let directory_offset = archive.len() as u32;
    archive.extend_from_slice(&directory);
    archive.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    archive.extend_from_slice(&[0, 0, 0, 0]);
    archive.extend_from_slice(&entries.to_le_bytes());
    archive.extend_from_slice(&entries.to_le_bytes());
    archive.extend_from_slice(&(directory.len() as u32).to_le_bytes());
    archive.extend_from_slice(&directory_offset.to_le_bytes());
    archive.extend_from_slice(&0u16.to_le_bytes());
    archive
}

/// CRC-32 (IEEE), as zip checks it.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}
