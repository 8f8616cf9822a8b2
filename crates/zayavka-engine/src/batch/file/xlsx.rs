//! Reading the first sheet of an XLSX workbook with bounded memory (issue 19).
//!
//! A workbook is a ZIP archive of XML files, so a file of a few kilobytes can stand for gigabytes:
//! a sheet whose XML inflates without end (a «zip bomb»), millions of cells, or just two cells,
//! `A1` and `XFD1048576`, which a dense table of the sheet (what `calamine`'s ranges are) turns
//! into seventeen billion cells. Before the workbook reaches `calamine`, [`check_archive`] counts
//! the archive's entries and inflates every one of them into nothing, counting the bytes, so that
//! neither a lying size in the archive's directory nor a real bomb gets past
//! [`MAX_UNPACKED_BYTES`]. The sheet is then read cell by cell, keeping only the cells that hold
//! a value, at most [`MAX_CELLS`] of them, and never as a dense table.

use std::borrow::Cow;
use std::io::Read as _;

use calamine::Reader as _;

use super::{ContentError, MAX_ROWS, Table};

/// The most bytes the whole workbook may take once unpacked. A sheet of 100,000 requests of a
/// few hundred characters each is around 60 MB of XML; a real activist's table of a building is
/// well under 1 MB.
pub const MAX_UNPACKED_BYTES: u64 = 128 * 1024 * 1024;

/// The most files inside the workbook's archive. Excel writes about ten for a table, and a
/// workbook with many sheets and pictures a few hundred.
pub const MAX_ENTRIES: usize = 2_000;

/// The most cells with a value the first sheet may hold: the header and every row a batch may
/// have, each with the eight columns a batch file knows.
pub const MAX_CELLS: usize = (MAX_ROWS + 1) * 8;

/// Refuses an archive with too many entries or one that unpacks to more than
/// [`MAX_UNPACKED_BYTES`], by inflating every entry and counting what comes out, up to the limit
/// and no further. An archive or an entry this reader cannot open is
/// [`ContentError::UnreadableWorkbook`]: it is not handed to `calamine`'s own ZIP reader, which
/// might read it differently and unguarded.
pub(super) fn check_archive(bytes: &[u8]) -> Result<(), ContentError> {
    let unreadable = |error: zip::result::ZipError| ContentError::UnreadableWorkbook {
        detail: error.to_string(),
    };
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(unreadable)?;
    if archive.len() > MAX_ENTRIES {
        return Err(ContentError::WorkbookTooLarge {
            entries: Some(archive.len()),
        });
    }
    let too_large = || ContentError::WorkbookTooLarge { entries: None };
    // The sizes the archive's directory declares are checked first, so that an honest bomb is
    // refused without inflating anything.
    let mut declared: u64 = 0;
    for index in 0..archive.len() {
        let entry = archive.by_index_raw(index).map_err(unreadable)?;
        declared = declared.saturating_add(entry.size());
    }
    if declared > MAX_UNPACKED_BYTES {
        return Err(too_large());
    }
    // A directory may lie, so what the entries really inflate to is counted too.
    let mut unpacked: u64 = 0;
    for index in 0..archive.len() {
        // An entry that cannot be opened (an unknown compression, encryption) is refused.
        let entry = archive.by_index(index).map_err(unreadable)?;
        let room = MAX_UNPACKED_BYTES - unpacked;
        let mut limited = entry.take(room.saturating_add(1));
        // A read error is damage, not size: `calamine` reports it when it reads the entry.
        let read = std::io::copy(&mut limited, &mut std::io::sink()).unwrap_or(0);
        if read > room {
            return Err(too_large());
        }
        unpacked += read;
    }
    Ok(())
}

/// Reads the first sheet into `table`, cell by cell, with row and column numbers as the
/// spreadsheet shows them.
pub(super) fn read_xlsx(bytes: &[u8], table: &mut Table) -> Result<(), ContentError> {
    read_xlsx_with(bytes, table, MAX_CELLS)
}

/// [`read_xlsx`] with another limit of cells, so that a test need not build a million.
pub(super) fn read_xlsx_with(
    bytes: &[u8],
    table: &mut Table,
    max_cells: usize,
) -> Result<(), ContentError> {
    check_archive(bytes)?;
    let unreadable = |error: calamine::XlsxError| ContentError::UnreadableWorkbook {
        detail: error.to_string(),
    };
    let mut workbook = calamine::Xlsx::new(std::io::Cursor::new(bytes)).map_err(unreadable)?;
    let Some(first_sheet) = workbook.sheet_names().first().cloned() else {
        return Err(ContentError::NoSheets);
    };
    // The cells with a value as (row, column, text), both counted from zero: a flat list, the
    // smallest form for the most cells allowed.
    let mut found: Vec<(u32, u32, Box<str>)> = Vec::new();
    {
        let mut cells = match workbook.worksheet_cells_reader(&first_sheet) {
            Ok(cells) => cells,
            // A chart sheet first: there is no table to read, as `calamine` itself decides.
            Err(calamine::XlsxError::NotAWorksheet(_)) => return Ok(()),
            Err(error) => return Err(unreadable(error)),
        };
        while let Some(cell) = cells.next_cell().map_err(unreadable)? {
            let text: Cow<'_, str> = match cell.get_value() {
                calamine::DataRef::Empty => continue,
                calamine::DataRef::String(text) => Cow::Borrowed(text.as_str()),
                calamine::DataRef::SharedString(text) => Cow::Borrowed(*text),
                other => Cow::Owned(calamine::Data::from(other.clone()).to_string()),
            };
            if found.len() == max_cells {
                return Err(ContentError::TooManyCells { max: max_cells });
            }
            let (row, column) = cell.get_position();
            found.push((row, column, text.into()));
        }
    }
    // Writers put rows and cells in order, but not all of them.
    found.sort_by_key(|(row, column, _)| (*row, *column));
    // The table starts at the first used row and column, as a spreadsheet's used range does.
    let (Some(first_row), Some(first_column)) = (
        found.first().map(|(row, _, _)| *row),
        found.iter().map(|(_, column, _)| *column).min(),
    ) else {
        return Ok(());
    };
    let mut expected_row = first_row;
    let mut line: Vec<&str> = Vec::new();
    for row_cells in found.chunk_by(|a, b| a.0 == b.0) {
        let row = row_cells[0].0;
        // The rows in between hold no value: blank rows, as the spreadsheet shows them.
        for blank in expected_row..row {
            table.blank(blank + 1);
        }
        expected_row = row + 1;
        // Only up to the row's last value: trailing empty cells change nothing.
        let width = row_cells
            .last()
            .map_or(0, |(_, column, _)| (column - first_column + 1) as usize);
        line.clear();
        line.resize(width, "");
        for (_, column, text) in row_cells {
            line[(column - first_column) as usize] = text;
        }
        table.push(row + 1, first_column, &line)?;
    }
    Ok(())
}
