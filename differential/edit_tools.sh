#!/bin/bash
# Edits of real files through the command line, checked by independent tools: a file made by
# its usual producer is decoded with a gallery schema at run time, one string or byte field is
# grown in the document, `encode --normalize` writes it (recomputing the sizes, counts and
# checksums that follow), and the format's own tools read the result with the edit.
#
#   differential/edit_tools.sh [SKELCODEC] [GALLERY]
#
# Needs ImageMagick (`convert`, `identify`), ffmpeg (`ffprobe` too), gzip and Python 3, as the
# differential run's producers do (tools.sh). PNG's chunk CRC is declared on a copy of the
# gallery's png.ksy (`-derived: crc32(type_raw, body)`), made in a temporary directory. ID3v2's
# tag size is a synchsafe integer, which no rule inverts yet: a frame grows within the room the
# tag leaves after its frames, and growing it further is refused (not written). Exits with 1
# when any check fails.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cli=${1:-$here/../target/release/skelcodec}
gallery=${2:-${KAITAI_FORMATS:-$here/../../shared/kaitai-formats}}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

# $1: what is checked; the rest: a command whose output must contain the expectation in $2.
expect() {
    local what=$1 want=$2
    shift 2
    if "$@" 2>&1 | grep -qF -- "$want"; then
        echo "ok    $what"
    else
        echo "FAIL  $what (wanted: $want)"
        failed=1
    fi
}

# $1: schema, $2: file, $3: Python editing the document `d`, $4: output.
edit() {
    "$cli" decode --schema "$1" -I "$gallery" "$2" 2>/dev/null > "$work/doc.json"
    python3 - "$work/doc.json" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(d, open(sys.argv[1], "w"))
PY
    "$cli" encode --normalize "$work/doc.json" -o "$4" 2>/dev/null
}

echo "== GIF: a comment extension's sub-block grown"
convert -size 4x4 xc:red -set comment "hello comment" "$work/a.gif"
edit "$gallery/image/gif.ksy" "$work/a.gif" "
e = [b for b in d['value']['blocks'] if b['block_type'] == 'extension'
     and b['body']['extension']['label'] == 'comment'][0]
e['body']['extension']['body']['subblocks']['entries'][0]['bytes'] = b'a longer comment than before'.hex()
" "$work/b.gif"
expect "skelcodec check" "no disagreements" "$cli" check --schema "$gallery/image/gif.ksy" -I "$gallery" "$work/b.gif"
expect "ImageMagick reads the comment" "comment: a longer comment than before" identify -verbose "$work/b.gif"

echo "== PNG: a tEXt chunk grown (CRC declared on a copy of png.ksy)"
mkdir -p "$work/image"
cp "$gallery"/image/*.ksy "$work/image/"
python3 - "$work/image/png.ksy" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
crc = "      - id: crc\n        type: u4\n"
assert crc in text
open(path, "w").write(text.replace(crc, crc + "        -derived: crc32(type_raw, body)\n"))
PY
convert -size 8x8 xc:blue -set comment "short note" "$work/a.png"
edit "$work/image/png.ksy" "$work/a.png" "
c = [c for c in d['value']['chunks'] if 'text_chunk' in c['body']
     and c['body']['text_chunk']['keyword']['value'] == 'comment'][0]
c['body']['text_chunk']['text']['value'] = 'a much longer note than the one before'
" "$work/b.png"
expect "skelcodec check (lengths and CRCs)" "no disagreements" "$cli" check --schema "$work/image/png.ksy" -I "$gallery" "$work/b.png"
expect "ImageMagick reads the text" "comment: a much longer note than the one before" identify -verbose "$work/b.png"
expect "zlib: every chunk's CRC" "True" python3 -c "
import struct, zlib
b = open('$work/b.png', 'rb').read(); i = 8; ok = True
while i < len(b):
    n, = struct.unpack('>I', b[i:i + 4]); crc, = struct.unpack('>I', b[i + 8 + n:i + 12 + n])
    ok &= zlib.crc32(b[i + 4:i + 8 + n]) == crc; i += 12 + n
print(ok)"

echo "== ZIP: the archive comment grown"
python3 -c "
import zipfile
with zipfile.ZipFile('$work/a.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('hello.txt', 'hello, edited world\n' * 20)
    z.writestr('sub/other.txt', 'another file')"
edit "$gallery/archive/zip.ksy" "$work/a.zip" "
e = [s for s in d['value']['sections'] if 'end_of_central_dir' in s['body']][0]
e['body']['end_of_central_dir']['comment'] = 'a new archive comment'
" "$work/b.zip"
expect "skelcodec check" "no disagreements" "$cli" check --schema "$gallery/archive/zip.ksy" -I "$gallery" "$work/b.zip"
expect "zipfile: comment and CRCs" "b'a new archive comment' None" python3 -c "
import zipfile; z = zipfile.ZipFile('$work/b.zip'); print(z.comment, z.testzip())"

echo "== gzip: the original file name grown"
(cd "$work" && printf 'hello, edited world\n' > hello.txt && gzip -c hello.txt > a.gz)
edit "$gallery/archive/gzip.ksy" "$work/a.gz" "
d['value']['name'] = b'a-much-longer-name.txt\x00'.hex()
" "$work/b.gz"
expect "skelcodec check" "no disagreements" "$cli" check --schema "$gallery/archive/gzip.ksy" -I "$gallery" "$work/b.gz"
expect "gzip module: name and content" "a-much-longer-name.txt hello, edited world" python3 -c "
import gzip
with gzip.open('$work/b.gz') as f:
    data = f.read()
raw = open('$work/b.gz', 'rb').read()
print(raw[10:raw.index(b'\x00', 10)].decode(), data.decode().strip())"

echo "== WAV: a LIST INFO title grown"
ffmpeg -hide_banner -loglevel error -y -f lavfi -i "sine=frequency=440:duration=0.2" \
    -metadata title="Short title" -metadata artist="someone" "$work/a.wav"
edit "$gallery/media/wav.ksy" "$work/a.wav" "
l = [c for c in d['value']['subchunks'] if 'list_chunk_type' in (c.get('chunk_data') or {})][0]
l['chunk_data']['list_chunk_type']['subchunks']['info_chunk_type'][1]['chunk_data'] = 'A considerably longer title'
" "$work/b.wav"
expect "skelcodec check" "no disagreements" "$cli" check --schema "$gallery/media/wav.ksy" -I "$gallery" "$work/b.wav"
expect "Python's wave reads the samples" "8820" python3 -c "import wave; print(wave.open('$work/b.wav').getnframes())"
expect "ffprobe reads the title" "A considerably longer title" ffprobe -hide_banner "$work/b.wav"

echo "== WAV: the format chunk's sample rate edited (a chunk that does not read its whole slot)"
edit "$gallery/media/wav.ksy" "$work/a.wav" "
f = [c for c in d['value']['subchunks'] if 'format_chunk_type' in (c.get('chunk_data') or {})][0]
f['chunk_data']['format_chunk_type']['n_samples_per_sec'] = 22050
" "$work/c.wav"
expect "skelcodec check" "no disagreements" "$cli" check --schema "$gallery/media/wav.ksy" -I "$gallery" "$work/c.wav"
expect "Python's wave reads the new rate" "22050" python3 -c "import wave; print(wave.open('$work/c.wav').getframerate())"

echo "== ID3v2.3: a title grown within the tag's room, then past it, and shrunk"
ffmpeg -hide_banner -loglevel error -y -f lavfi -i "sine=frequency=440:duration=0.2" \
    -id3v2_version 3 -metadata title="Short title" "$work/a.mp3"
id3=$gallery/media/id3v2_3.ksy
# $1: the new title, $2: output; then, unless $3 is "refused", check it and ffprobe it.
retitle() {
    edit "$id3" "$work/a.mp3" "
t = [f for f in d['value']['tag']['frames'] if f['id'] == 'TIT2'][0]
t['data'] = '00' + b'$1'.hex()
" "$2"
    if [ "${3:-}" = refused ]; then
        expect "'$1' is refused, not written" "missing" sh -c "test -e '$2' && echo written || echo missing"
        return
    fi
    expect "'$1': skelcodec check" "no disagreements" "$cli" check --schema "$id3" -I "$gallery" "$2"
    expect "'$1': ffprobe reads it" "title=$1" ffprobe -v error -show_entries format_tags=title -of default=nw=1 "$2"
}
retitle "Short title, +5" "$work/b.mp3"
retitle "Short title, and a good deal longer" "$work/c.mp3" refused
retitle "Tiny" "$work/d.mp3"

exit $failed
