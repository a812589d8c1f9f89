#!/usr/bin/env perl
# Patches Kaitai Struct 0.11's generated Rust of one format (a module directory run.sh writes:
# one file per schema, the one compiled and those it imports) where it does not compile. Each
# patch works around one bug of the compiler's Rust target, and leaves what the reader does on
# any input as it was: a rename, a missing conversion, clone or dereference, the byte order
# chosen as the generated code chooses it elsewhere.
#
#   benches/kaitai-rust/patch.pl MODULE_DIR
#
# A patch applies to every module that has the file it names, and must match there what it
# expects of it: if it does not (Kaitai's output changed), the script names it and exits 1,
# patching nothing. Prints the patches applied, on one line.
use strict;
use warnings;

my $dir = shift or die "usage: $0 MODULE_DIR\n";
opendir(my $dh, $dir) or die "$dir: $!\n";
my %src;
for my $name (sort grep { /\.rs$/ && $_ ne 'mod.rs' } readdir $dh) {
    local $/;
    open(my $fh, '<', "$dir/$name") or die "$dir/$name: $!\n";
    $src{$name} = <$fh>;
}

# Dies, naming what a patch looked for, when a substitution matched nothing.
sub expect {
    my ($count, $what) = @_;
    die "$what: not found\n" unless $count;
}

# Each patch: its name, the generated file it patches, and what it does to that file's text
# (`$_`), through `expect`.
my @patches = (
    # An instance named `type` becomes a field and a method named `type`, a Rust keyword:
    # written as the raw identifier `r#type`, the same name.
    [ 'keyword-type', 'png.rs', sub {
        expect(s/^(\h+)type(: RefCell<)/$1r#type$2/mg, 'field `type: RefCell<…>`');
        expect(s/\bfn type\(/fn r#type(/g, '`fn type(`');
        expect(s/\.type(?=[(.])/.r#type/g, '`.type(` or `.type.`');
    } ],
    # An enum value named `unknown` gets a variant `Unknown` beside the `Unknown(i64)` the
    # compiler adds for values the schema does not name: renamed `Unknown_` (Kaitai's variant
    # names have no `_`), here and in the other files of the module.
    map({ [ 'enum-unknown', $_, \&rename_unknown ] } qw(gzip.rs png.rs icc_4.rs)),
    # exif.ksy's byte order is chosen at run time (`endian: switch-on`), but its `u2` fields
    # with an `enum` are read with `read_u2`, which the runtime does not have (it has
    # `read_u2le`, `read_u2be`): read as the generated code reads the other fields, little-endian
    # if `_is_le` is 1, else big-endian.
    [ 'runtime-endian-enum', 'exif.rs', sub {
        expect(s/\b_io\.read_([us][248]|f[48])\(\)\?/
            "(if *self_rc._is_le.borrow() == 1 { _io.read_$1le()? } else { _io.read_$1be()? })"/ge,
            '`_io.read_u2()?` (and other sizes)');
    } ],
    # png.ksy's `splt_entry` reads its parent's `sample_depth`, a seq field (a plain getter),
    # as an instance (`?` on the `Ref<u8>` it returns): the `?` dropped.
    [ 'seq-field-question-mark', 'png.rs', sub {
        expect(s/(\bmatch \*_prc\.as_ref\(\)\.unwrap\(\)\.sample_depth\(\))\? \{/$1 {/g,
            '`match *_prc.as_ref().unwrap().sample_depth()? {`');
    } ],
    # `delay_num / (delay_den == 0 ? 100.0 : delay_den)` (png.ksy's `fctl` chunk): the `if`
    # has an `f64` and a `u16` branch; the `u16` converted to `f64`, as Kaitai's float division
    # converts it.
    [ 'if-branch-types', 'png.rs', sub {
        expect(s/(\{ 100\.0 \} else \{ \*self\.delay_den\(\)) \}/$1 as f64 }/g,
            '`{ 100.0 } else { *self.delay_den() }`');
    } ],
    # A `valid: expr` check of a `str` or `bytes` field copies the field out of its `Ref`
    # (`let _tmpa = *self_rc.FIELD();`), a move: cloned instead.
    [ 'move-out-of-ref', 'png.rs', sub {
        for my $field (qw(file_name type_raw)) {
            expect(s/(\blet _tmpa = )\*(self_rc\.$field\(\));/$1$2.clone();/g,
                "`let _tmpa = *self_rc.$field();`");
        }
    } ],
    # zip.ksy's `local_file.body` (bytes) is assigned `Some(…)`, the type of the switched
    # `body` fields of other types of the schema: the `Some` dropped.
    [ 'bytes-field-some', 'zip.rs', sub {
        expect(s/(\*self_rc\.body\.borrow_mut\(\)\ =\ )
                 Some\((_io\.read_bytes\(\*self_rc\.header\(\)\.len_body_compressed\(\)
                 \ as\ usize\)\?\.into\(\))\);/$1$2;/gx,
            '`*self_rc.body.borrow_mut() = Some(_io.read_bytes(…)?.into());`');
    } ],
);

# The enums of the file patched (`$_`) with both a variant `Unknown` and `Unknown(i64)`:
# `Unknown` renamed `Unknown_` in their definitions and wherever `ENUM::Unknown` is named in the
# module.
sub rename_unknown {
    my @enums;
    for my $enum (/^pub enum (\w+) \{\n(?=(?:(?!^\}).)*^\h+Unknown\(i64\),$)/gms) {
        s{^(pub enum \Q$enum\E \{\n(?:(?!^\}).)*?^\h+Unknown),$}{$1_,}ms and push @enums, $enum;
    }
    expect(scalar @enums, 'an enum with variants `Unknown` and `Unknown(i64)`');
    for my $enum (@enums) {
        my $uses = 0;
        $uses += s/\b\Q$enum\E::Unknown\b(?!\()/${enum}::Unknown_/g for values %src;
        expect($uses, "`${enum}::Unknown`");
    }
}

my @applied;
for my $patch (@patches) {
    my ($name, $file, $apply) = @$patch;
    next unless exists $src{$file};
    for ($src{$file}) {
        eval { $apply->(); 1 } or do {
            print STDERR "patch $name no longer matches $dir/$file: $@";
            exit 1;
        };
    }
    push @applied, "$name ($file)";
}
for my $name (keys %src) {
    open(my $fh, '>', "$dir/$name") or die "$dir/$name: $!\n";
    print $fh $src{$name};
}
print join(", ", @applied), "\n" if @applied;
