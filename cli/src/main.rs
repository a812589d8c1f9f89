//! `skelcodec`: decode game animation files to JSON or YAML, encode them back, and verify
//! that decoding and re-encoding reproduces every byte; check schemas and show their code.
//!
//! Exit status: 0 success; 1 a file does not round-trip byte for byte (`roundtrip`), has a
//! derived field that disagrees with its content (`check`), nothing matches `decode --path`,
//! or a schema is rejected (`schema check`, `schema expand`); 2 a usage, decode or encode
//! error.

mod batch;
mod commands;
mod container;
mod convert;
mod document;
mod error;
mod explain;
mod formats;
mod io;
mod overlays;
mod package;
mod schema;
mod select;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use skelcodec_formats::{DocumentSyntax, Format};

use crate::error::CliError;
use crate::error::EXIT_BROKEN_PIPE;
use crate::overlays::OverlayArgs;

/// Batch commands allocate and free a file's worth of values per file on every core: mimalloc
/// keeps those pages in the process, and its per-thread heaps do not contend, where the system
/// allocator hands large blocks back to the kernel and faults them in again.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Command line of `skelcodec`.
#[derive(Debug, Parser)]
#[command(
    name = "skelcodec",
    version,
    about,
    after_help = "Exit status:\n  0  success\n  1  roundtrip: a file is not byte-exact; check: a derived field disagrees with the content;\n     decode --path: nothing matches; schema check/expand: a schema is rejected (its file:line:col and why)\n  2  a usage, decode or encode error (nothing is written)\n\nCommands that write refuse an output that is one of their inputs unless --force."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Print only what was asked for and what went wrong: no progress bar, no line for a file
    /// that is fine (`roundtrip`, `check`, `convert` of a folder), no summary
    #[arg(short, long, global = true)]
    quiet: bool,
}

/// The format option shared by the commands that read files.
#[derive(Debug, Args)]
struct FormatArg {
    /// Use this format instead of detecting it by magic and file extension (see `skelcodec formats`)
    #[arg(long = "format", value_name = "ID", conflicts_with = "schema")]
    id: Option<String>,
    /// Read with this Kaitai Struct schema, interpreted at run time instead of a built-in format
    #[arg(long, value_name = "FILE.ksy")]
    schema: Option<PathBuf>,
    /// A directory where the schema's absolute imports (`/common/vlq_base128_le`) are found;
    /// may be repeated
    #[arg(
        short = 'I',
        long = "import-path",
        value_name = "DIR",
        requires = "schema"
    )]
    import_paths: Vec<PathBuf>,
    /// A value for a parameter of the schema's root type: an integer (decimal or 0x hex),
    /// `true` or `false`, an enum value's name or number, text, bytes in hex (`cafe01`), or
    /// integers separated by commas; may be repeated. A parameter not given has its
    /// `-default`; a read that needs one with neither fails, naming it
    #[arg(long = "param", value_name = "NAME=VALUE", requires = "schema")]
    params: Vec<schema::RootParam>,
    /// Also print the schema's style warnings, which `schema check` always prints (they concern
    /// the schema, not the file)
    #[arg(long, requires = "schema")]
    warnings: bool,
    #[command(flatten)]
    overlays: OverlayArgs,
}

impl FormatArg {
    /// The format asked for: a built-in one by id, or the schema's.
    fn chosen(&self) -> Result<Option<&'static dyn Format>, CliError> {
        self.refuse_overlays_without_schema()?;
        match &self.schema {
            Some(path) => {
                let chosen = (&self.overlays, &self.params[..]);
                schema::interpreted(path, &self.import_paths, chosen, self.warnings).map(Some)
            }
            None => commands::forced_format(self.id.as_deref()),
        }
    }

    /// Overlays add to a schema given with `--schema`: a built-in format has its own.
    fn refuse_overlays_without_schema(&self) -> Result<(), CliError> {
        match self.schema.is_none() && (!self.overlays.files.is_empty() || self.overlays.no_overlay)
        {
            true => Err(CliError::Usage(
                "--overlay and --no-overlay go with --schema".to_owned(),
            )),
            false => Ok(()),
        }
    }
}

/// The option shared by the commands that write a file.
#[derive(Debug, Args)]
struct ForceArg {
    /// Allow the output to replace one of the input files (and `package replace` to put in
    /// content that does not decode as the entry's format)
    #[arg(long)]
    force: bool,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Decode a file and print the document {"format": ID, "value": ...}
    Decode {
        /// The file to decode
        file: PathBuf,
        /// Print JSON (the default, unless OUT ends in .yaml or .yml)
        #[arg(long, conflicts_with = "yaml")]
        json: bool,
        /// Print YAML
        #[arg(long)]
        yaml: bool,
        /// Write the document to this file instead of standard output (YAML for .yaml/.yml)
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// Print only the parts at this path, each with its path, in the form the tool prints
        /// (`body.anp3.animations[0].name`); `*` or `[*]` matches one level, `**` any number
        /// (`--path '**.skin'` prints every skin of a model); nothing matched exits with 1
        #[arg(long, value_name = "PATH")]
        path: Option<select::Pattern>,
        /// Print a summary: long lists as their length, first elements and checksum
        #[arg(long)]
        summary: bool,
        #[command(flatten)]
        format: FormatArg,
        #[command(flatten)]
        force: ForceArg,
    },
    /// Encode a document printed by `decode` (JSON, or YAML for .yaml/.yml) into a file
    Encode {
        /// The JSON or YAML document
        document: PathBuf,
        /// The file to write (replaced atomically, untouched on failure)
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        /// Recompute every derived field (sizes, counts, offsets) before writing, and print
        /// the fields that changed: finishes an edit that changes a size or a count
        #[arg(long)]
        normalize: bool,
        #[command(flatten)]
        format: FormatArg,
        #[command(flatten)]
        force: ForceArg,
    },
    /// Decode and re-encode files (directories recursively) and report whether they are byte-exact
    #[command(name = "roundtrip")]
    RoundTrip {
        /// Files or directories
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        format: FormatArg,
    },
    /// Report derived fields (sizes, counts, offsets) whose stored value disagrees with the content
    Check {
        /// Files or directories
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Write the file with every derived field recomputed to OUT (one file only)
        #[arg(long, requires = "output")]
        normalize: bool,
        /// Where --normalize writes
        #[arg(short, long, value_name = "OUT", requires = "normalize")]
        output: Option<PathBuf>,
        #[command(flatten)]
        format: FormatArg,
        #[command(flatten)]
        force: ForceArg,
    },
    /// Convert a file to another version of its format, through the decoded value
    /// (`skelcodec formats` lists each format's versions: `--to anp3` turns a GTA III or Vice
    /// City animation package into a San Andreas one and `--to anpk` back, keeping every key
    /// frame, with Vice City's object headers, which GTA III reads too (`--to anpk-iii` writes
    /// GTA III's 48-byte ones, `--to anpk-vc` Vice City's; `--to anpk` leaves an ANPK file's
    /// own); `--to gsa-4.2` upgrades a SWAT 3 animation)
    Convert {
        /// The file to convert, or a folder: every file under it that converts to VERSION
        /// (others are skipped), on every core
        file: PathBuf,
        /// The target version
        #[arg(long, value_name = "VERSION")]
        to: String,
        /// The file to write (replaced atomically, untouched on failure); for a folder, the
        /// folder that receives each converted file at its relative path
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        /// Use the target's compressed encodings where it has them (values range-checked)
        #[arg(long)]
        compress: bool,
        /// Drop what the target cannot hold, and print what was dropped, instead of refusing
        #[arg(long)]
        lossy: bool,
        #[command(flatten)]
        force: ForceArg,
    },
    /// List the known formats and their file extensions
    Formats,
    /// List, extract, replace, add and delete the entries of a Sims 2 package or a GTA IMG
    /// archive, or rebuild it without holes (an entry is also reachable as `PACKAGE#ENTRY`
    /// wherever a file is taken)
    Package {
        #[command(subcommand)]
        command: PackageCommand,
    },
    /// Show where each field of a file is: its byte range, path, type and value, read with a
    /// schema given at run time, or else with the schema of its built-in format, detected as
    /// other commands detect it (a read that fails is shown up to the failure, with the error)
    ///
    /// The table shows byte offsets in the file; a bit field's as byte and bit (`0x0.3 ..
    /// 0x0.8`: bits 3 to 8 of byte 0, counted in the order its bit order reads them); a value
    /// read from decoded bytes (`process`, an encoding) as offsets in them, named by the value
    /// they are decoded from (`packed+0x2`), with a last line for each such stream saying
    /// where its stored bytes are. Parse instances are shown where they are read, look-aheads
    /// included. Bytes no field claims (between fields, after the last) are rows of their own,
    /// `(unclaimed)`, showing their first bytes in hex.
    Explain {
        /// The file to explain
        file: PathBuf,
        #[command(flatten)]
        format: FormatArg,
        /// Show only the fields at this path and below (as `decode --path` takes it)
        #[arg(long, value_name = "PATH")]
        path: Option<select::Pattern>,
        /// Print JSON: `fields`, a list of records with `path`, `start`, `end` (byte offsets,
        /// the end exclusive), `type` and `value`; for a bit field (or a value that starts or
        /// ends inside a byte) also `start_bit` and `end_bit` (bits from the start of its
        /// stream, 8 a byte, counted in the order its bit order reads them); for a value read
        /// from decoded bytes (`process`, an encoding) `stream`, with the `path` of the value
        /// they are decoded from and where its stored bytes are (`stored_start`, `stored_end`,
        /// and `stored_in`, the decoded stream they are in if not the file), the offsets being
        /// in the decoded bytes; and on failure `error` and `partial`, the document as far as
        /// it was read
        #[arg(long)]
        json: bool,
        /// Explain again whenever the schema, a schema it imports or the file changes, until
        /// interrupted
        #[arg(long)]
        watch: bool,
    },
    /// Check schemas (.ksy) or print the code generated for one
    Schema {
        #[command(subcommand)]
        command: SchemaCommand,
    },
}

/// `skelcodec package …`.
#[derive(Debug, Subcommand)]
enum PackageCommand {
    /// One line per entry: its name (a file name, or a package's type:group:instance in hex),
    /// type, size, storage
    List {
        /// The package
        package: PathBuf,
    },
    /// Extract entries (all when none is named) into the directory OUT, or one entry into
    /// the file OUT
    Extract {
        /// The package
        package: PathBuf,
        /// Entry names as `list` prints them (the type may be its name: ANIM:0x1C050000:0x1)
        entries: Vec<String>,
        /// Directory (or, for one entry, file) to write
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
    },
    /// Write the package with one entry replaced by a file (compressed again when it was; in
    /// an IMG archive, in its sectors when it fits, else moved to the end)
    Replace {
        /// The package
        package: PathBuf,
        /// The entry's name, as `list` prints it
        entry: String,
        /// The new content
        file: PathBuf,
        /// The package to write (replaced atomically, untouched on failure)
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        #[command(flatten)]
        force: ForceArg,
    },
    /// Write the package with a file added as a new entry, laid out anew as `rebuild` does
    /// (a package's entry is stored uncompressed)
    Add {
        /// The package
        package: PathBuf,
        /// The new entry's content
        file: PathBuf,
        /// The entry's name: in an IMG archive at most 23 bytes (default: FILE's name); in a
        /// package its key, TYPE:GROUP:INSTANCE[:INSTANCE_HI] in hex, as `list` prints it
        #[arg(long, value_name = "NAME")]
        name: Option<String>,
        /// The package to write (replaced atomically, untouched on failure; `-`: standard
        /// output)
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        #[command(flatten)]
        force: ForceArg,
    },
    /// Write the package without the named entries, laid out anew as `rebuild` does
    Delete {
        /// The package
        package: PathBuf,
        /// Entry names as `list` prints them
        #[arg(required = true)]
        entries: Vec<String>,
        /// The package to write (replaced atomically, untouched on failure; `-`: standard
        /// output)
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        #[command(flatten)]
        force: ForceArg,
    },
    /// Write the package without holes: its entries in directory order, packed (a package)
    /// or each at the next whole sector (an IMG archive), stale bytes dropped
    Rebuild {
        /// The package
        package: PathBuf,
        /// The package to write (replaced atomically, untouched on failure; `-`: standard
        /// output)
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        #[command(flatten)]
        force: ForceArg,
    },
}

/// `skelcodec schema …`.
#[derive(Debug, Subcommand)]
enum SchemaCommand {
    /// Print `ok FILE` for each schema the compiler accepts, the located error otherwise
    /// (exit 1 if any is rejected)
    Check {
        /// The schemas
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// A directory where absolute imports (`/common/vlq`) are looked up (repeatable)
        #[arg(short = 'I', long = "import-path", value_name = "DIR")]
        import_paths: Vec<PathBuf>,
        #[command(flatten)]
        overlays: OverlayArgs,
        /// Also list each schema's derived fields (sizes and counts `check` reports and
        /// `normalize` recomputes), those inferred from their use and those declared
        #[arg(long)]
        explain_derived: bool,
    },
    /// Print the Rust code generated for a schema (what `codec!` expands to)
    Expand {
        /// The schema
        file: PathBuf,
        /// A directory where absolute imports are looked up (repeatable)
        #[arg(short = 'I', long = "import-path", value_name = "DIR")]
        import_paths: Vec<PathBuf>,
        #[command(flatten)]
        overlays: OverlayArgs,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command, cli.quiet) {
        Ok(code) => code,
        // A closed pipe (`skelcodec check DIR | head -1`) ends the command before it is done:
        // silently, with the status of a process SIGPIPE ends, so that `set -o pipefail`
        // does not take what was cut short for a success.
        Err(e) if e.is_broken_pipe() => ExitCode::from(EXIT_BROKEN_PIPE),
        Err(e) => {
            eprintln!("skelcodec: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// Dispatches to the command; `quiet`: print only what was asked for and what went wrong.
fn run(command: Command, quiet: bool) -> Result<ExitCode, CliError> {
    match command {
        Command::Decode {
            file,
            json,
            yaml,
            output,
            path,
            summary,
            format,
            force,
        } => {
            if let Some(out) = &output {
                io::refuse_overwriting_inputs(out, &[&file], force.force)?;
            }
            let syntax = match (json, yaml) {
                (_, true) => Some(DocumentSyntax::Yaml),
                (true, _) => Some(DocumentSyntax::Json),
                _ => None,
            };
            let options = document::DecodeOptions {
                forced: format.chosen()?,
                syntax,
                output: output.as_deref(),
                select: path.as_ref(),
                summary,
            };
            document::decode(&file, &options)
        }
        Command::Encode {
            document,
            output,
            normalize,
            format,
            force,
        } => {
            io::refuse_overwriting_inputs(&output, &[&document], force.force)?;
            document::encode(&document, format.chosen()?, &output, normalize)
        }
        Command::RoundTrip { paths, format } => {
            commands::roundtrip(&paths, format.chosen()?, quiet)
        }
        Command::Explain {
            file,
            format,
            path,
            json,
            watch,
        } => {
            format.refuse_overlays_without_schema()?;
            let schema = match &format.schema {
                Some(path) => explain::Schema::File {
                    path,
                    import_paths: &format.import_paths,
                    overlays: &format.overlays,
                    params: &format.params,
                },
                None => explain::Schema::BuiltIn(commands::forced_format(format.id.as_deref())?),
            };
            let options = explain::ExplainOptions {
                schema,
                select: path.as_ref(),
                json,
            };
            match watch {
                true => explain::watch(&file, &options),
                false => explain::explain(&file, &options),
            }
        }
        Command::Check {
            paths,
            normalize,
            output,
            format,
            force,
        } => {
            let normalize_to = output.filter(|_| normalize);
            if let Some(out) = &normalize_to {
                let inputs: Vec<&std::path::Path> = paths.iter().map(PathBuf::as_path).collect();
                io::refuse_overwriting_inputs(out, &inputs, force.force)?;
            }
            commands::check(&paths, format.chosen()?, normalize_to.as_deref(), quiet)
        }
        Command::Convert {
            file,
            to,
            output,
            compress,
            lossy,
            force,
        } => {
            io::refuse_overwriting_inputs(&output, &[&file], force.force)?;
            let options = convert::ConvertOptions { compress, lossy };
            if file.is_dir() {
                convert::convert_folder(&file, &to, &output, options, quiet)
            } else {
                convert::convert(&file, &to, &output, options)
            }
        }
        Command::Formats => formats::list_formats(),
        Command::Package { command } => match command {
            PackageCommand::List { package } => package::list(&package),
            PackageCommand::Extract {
                package,
                entries,
                output,
            } => package::extract(&package, &entries, &output),
            PackageCommand::Replace {
                package,
                entry,
                file,
                output,
                force,
            } => {
                io::refuse_overwriting_inputs(&output, &[&package, &file], force.force)?;
                package::replace(&package, &entry, &file, &output, force.force)
            }
            PackageCommand::Add {
                package,
                file,
                name,
                output,
                force,
            } => {
                io::refuse_overwriting_inputs(&output, &[&package, &file], force.force)?;
                package::add(&package, &file, name.as_deref(), &output)
            }
            PackageCommand::Delete {
                package,
                entries,
                output,
                force,
            } => {
                io::refuse_overwriting_inputs(&output, &[&package], force.force)?;
                package::delete(&package, &entries, &output)
            }
            PackageCommand::Rebuild {
                package,
                output,
                force,
            } => {
                io::refuse_overwriting_inputs(&output, &[&package], force.force)?;
                package::rebuild(&package, &output)
            }
        },
        Command::Schema {
            command:
                SchemaCommand::Check {
                    files,
                    import_paths,
                    overlays,
                    explain_derived,
                },
        } => schema::check(&files, &import_paths, &overlays, explain_derived),
        Command::Schema {
            command:
                SchemaCommand::Expand {
                    file,
                    import_paths,
                    overlays,
                },
        } => schema::expand(&file, &import_paths, &overlays),
    }
}
