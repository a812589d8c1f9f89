"""Gathers real files for the differential test into OUT/<format>/ (default
/tmp/differential/files): files found on the machine and files made by the formats' real
producers (ImageMagick, sox, ffmpeg, mkfs, genisoimage, qemu-img, javac, openssl, ...), as each
format's recipe in formats.tsv says.

    python files.py [--out DIR] [--per-format N] [--only FORMAT,...]

A recipe is a list of words: `find:GLOB` (an absolute glob; PYLIB stands for Python's standard
library and site-packages, of both the system Python and the venv) and `make:NAME` (a function
`make_NAME(work_dir)` below that returns the files it made). A tool that is missing or fails is
reported and skipped: that format gets fewer files, and the others are not affected. Files are
kept under MAX_SIZE; at most N per format, made files first (they are chosen for variety), then
found ones spread over everything that matched. OUT/files.json lists what was gathered and what
failed.
"""

import argparse
import base64
import glob
import gzip
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import wave

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_SIZE = 3 * 1024 * 1024
MIN_SIZE = 16
CONVERT = "/usr/bin/convert" if os.path.exists("/usr/bin/convert-im6.q16") else "convert"
VENV = os.environ.get("DIFFERENTIAL_VENV",
                      os.path.join(os.environ.get("DIFFERENTIAL_DIR", "/tmp/differential"), "venv"))


class Skip(Exception):
    """A recipe that cannot run here (a tool is missing)."""


def run(*args, cwd=None, stdin=None, timeout=120):
    tool = args[0]
    if shutil.which(tool) is None and not os.path.exists(tool):
        raise Skip(f"{tool} is not installed")
    result = subprocess.run(
        [str(a) for a in args], cwd=cwd, input=stdin, capture_output=True, timeout=timeout
    )
    if result.returncode != 0:
        raise RuntimeError(
            f"{' '.join(map(str, args))} exited with {result.returncode}: "
            + result.stderr.decode(errors="replace")[-400:]
        )
    return result.stdout


def python_dirs():
    dirs = {sysconfig.get_path("stdlib"), sysconfig.get_path("purelib")}
    dirs.update(glob.glob(f"{VENV}/lib/python3*/site-packages"))
    return sorted(d for d in dirs if d and os.path.isdir(d))


def find(pattern):
    patterns = [pattern.replace("PYLIB", d) for d in python_dirs()] if "PYLIB" in pattern else [pattern]
    found = []
    for p in patterns:
        for path in glob.iglob(p, recursive=True):
            try:
                size = os.path.getsize(path)
            except OSError:
                continue
            if os.path.isfile(path) and not os.path.islink(path) and MIN_SIZE <= size <= MAX_SIZE:
                found.append(path)
    return sorted(set(found))


def spread(items, n):
    if len(items) <= n:
        return list(items)
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def a_source_tree(work):
    """A small directory tree for file-system and archive producers: text, binary, a link, a
    nested directory, an empty file and a long name."""
    tree = os.path.join(work, "tree")
    if os.path.isdir(tree):
        return tree
    os.makedirs(os.path.join(tree, "sub", "deeper"))
    with open(os.path.join(tree, "hello.txt"), "w") as f:
        f.write("hello, differential world\n" * 20)
    with open(os.path.join(tree, "sub", "binary.bin"), "wb") as f:
        f.write(bytes(range(256)) * 40)
    with open(os.path.join(tree, "sub", "deeper", "a file with a rather long name.txt"), "w") as f:
        f.write("long name\n")
    open(os.path.join(tree, "empty"), "w").close()
    os.symlink("hello.txt", os.path.join(tree, "link"))
    return tree


def a_sound(work, name="tone.wav"):
    path = os.path.join(work, name)
    if not os.path.exists(path):
        run("sox", "-n", "-r", "8000", "-c", "1", "-b", "16", path, "synth", "0.25", "sine", "440")
    return path


def a_picture(work):
    path = os.path.join(work, "picture.png")
    if not os.path.exists(path):
        run(CONVERT, "-size", "48x32", "gradient:red-blue", "-fill", "white",
            "-draw", "circle 24,16 30,20", path)
    return path


def an_icc_profile():
    """A version 4 profile (the gallery's PNG and JPEG read ICC profiles with icc_4, which
    requires version 4): colord's sRGB."""
    found = [p for p in find("/usr/share/color/icc/**/*.icc") if open(p, "rb").read(9)[8:] == b"\x04"]
    if not found:
        raise Skip("no version 4 ICC profile installed (colord-data)")
    return next((p for p in found if p.endswith("/sRGB.icc")), found[0])


# --- images -----------------------------------------------------------------------------------

def make_png(work):
    pic = a_picture(work)
    out = []
    for name, args in [
        ("icc.png", ["-profile", an_icc_profile(), "-set", "comment", "with a profile"]),
        ("palette.png", ["-colors", "16", "-type", "Palette"]),
        ("gray16.png", ["-colorspace", "Gray", "-depth", "16"]),
        ("alpha-text.png", ["-alpha", "on", "-set", "Title", "differential", "-set", "Author", "skelcodec"]),
    ]:
        path = os.path.join(work, name)
        run(CONVERT, pic, *args, path)
        out.append(path)
    return out


def make_gif(work):
    pic = a_picture(work)
    still, anim = os.path.join(work, "still.gif"), os.path.join(work, "anim.gif")
    run(CONVERT, pic, "-set", "comment", "a comment", still)
    run(CONVERT, "-delay", "10", "-loop", "0", pic, "-size", "48x32", "xc:yellow", "rose:", anim)
    return [still, anim]


def make_jpeg(work):
    pic = a_picture(work)
    plain, icc, exif, progressive = (os.path.join(work, n) for n in
                                     ("plain.jpg", "icc.jpg", "exif.jpg", "progressive.jpg"))
    run(CONVERT, pic, "-quality", "85", plain)
    run(CONVERT, pic, "-profile", an_icc_profile(), icc)
    run(CONVERT, "rose:", "-interlace", "Plane", progressive)
    run(CONVERT, pic, exif)
    run("exiftool", "-q", "-overwrite_original", "-Make=Differential", "-Model=Harness 1",
        "-DateTimeOriginal=2024:01:02 03:04:05", "-ExposureTime=1/125", "-FNumber=2.8",
        "-ISO=200", "-Orientation#=6", "-GPSLatitude=48.85", "-GPSLatitudeRef=N",
        "-GPSLongitude=2.35", "-GPSLongitudeRef=E", "-Artist=skelcodec", exif)
    return [plain, icc, exif, progressive]


def make_exif(work):
    jpg = [p for p in make_jpeg(work) if p.endswith("exif.jpg")][0]
    tagged = os.path.join(work, "big-endian.jpg")
    run(CONVERT, "rose:", tagged)
    run("exiftool", "-q", "-overwrite_original", "-ExifByteOrder=Big-endian", "-Make=MM",
        "-UserComment=motorola order", "-ImageDescription=big", tagged)
    out = []
    for src, name in [(jpg, "little.exif"), (tagged, "big.exif")]:
        blob = run("exiftool", "-b", "-EXIF", src)
        path = os.path.join(work, name)
        with open(path, "wb") as f:
            f.write(blob)
        out.append(path)
    return out


def make_ico(work):
    pic = a_picture(work)
    multi, single = os.path.join(work, "multi.ico"), os.path.join(work, "single.ico")
    run(CONVERT, pic, "-define", "icon:auto-resize=32,16", multi)
    run(CONVERT, "rose:", "-resize", "16x16!", single)
    return [multi, single]


def converted(work, ext, variants):
    pic = a_picture(work)
    out = []
    for name, args in variants:
        path = os.path.join(work, f"{name}.{ext}")
        prefix = "".join(a for a in args if a.endswith(":"))
        run(CONVERT, pic, *(a for a in args if not a.endswith(":")), prefix + path)
        out.append(path)
    return out


def make_bmp(work):
    return converted(work, "bmp", [("v3", ["BMP3:"]), ("v5", ["BMP:"]),
                                   ("palette", ["-colors", "16", "-type", "Palette", "BMP3:"]),
                                   ("v4-alpha", ["-alpha", "on", "BMP:"])])


def make_tga(work):
    return converted(work, "tga", [("truecolor", []), ("rle", ["-compress", "RLE"]),
                                   ("palette", ["-colors", "16", "-type", "Palette"])])


def make_pcx(work):
    return converted(work, "pcx", [("truecolor", []), ("palette", ["-colors", "16", "-type", "Palette"])])


def make_xwd(work):
    return converted(work, "xwd", [("truecolor", []), ("palette", ["-colors", "16", "-type", "Palette"])])


# --- sound and video --------------------------------------------------------------------------

def make_wav(work):
    out = []
    for name, args in [("pcm8.wav", ["-b", "8", "-e", "unsigned"]), ("pcm24.wav", ["-b", "24"]),
                       ("float.wav", ["-e", "float", "-b", "32"]), ("ulaw.wav", ["-e", "u-law"])]:
        path = os.path.join(work, name)
        run("sox", "-n", "-r", "8000", "-c", "2", *args, path, "synth", "0.1", "sine", "300")
        out.append(path)
    path = os.path.join(work, "python-wave.wav")
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(11025)
        w.writeframes(bytes(range(256)) * 8)
    out.append(path)
    return out


def sox_to(work, ext, variants):
    src = a_sound(work)
    out = []
    for name, args in variants:
        path = os.path.join(work, f"{name}.{ext}")
        run("sox", src, *args, path)
        out.append(path)
    return out


def make_au(work):
    return sox_to(work, "au", [("pcm16", []), ("ulaw", ["-e", "u-law"]), ("float", ["-e", "float", "-b", "32"])])


def make_voc(work):
    return sox_to(work, "voc", [("pcm8", ["-b", "8"]), ("pcm16", ["-b", "16"]), ("stereo", ["-c", "2"])])


def ffmpeg(*args):
    return run("ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-bitexact", *args)


def make_ogg(work):
    out = sox_to(work, "ogg", [("vorbis", ["-C", "3"])])
    opus = os.path.join(work, "opus.ogg")
    ffmpeg("-i", a_sound(work), "-c:a", "libopus", opus)
    return out + [opus]


VIDEO = ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=5:duration=1"]
AUDIO = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=8000:duration=1"]


def make_avi(work):
    mjpeg, raw = os.path.join(work, "mjpeg.avi"), os.path.join(work, "raw.avi")
    ffmpeg(*VIDEO, *AUDIO, "-c:v", "mjpeg", "-c:a", "pcm_s16le", "-shortest", mjpeg)
    ffmpeg(*VIDEO, "-c:v", "rawvideo", "-pix_fmt", "rgb24", "-frames:v", "2", raw)
    return [mjpeg, raw]


def make_mov(work):
    mov, mp4 = os.path.join(work, "mjpeg.mov"), os.path.join(work, "mpeg4.mp4")
    ffmpeg(*VIDEO, *AUDIO, "-c:v", "mjpeg", "-c:a", "pcm_s16le", "-shortest", mov)
    ffmpeg(*VIDEO, "-c:v", "mpeg4", "-frames:v", "3", mp4)
    return [mov, mp4]


def make_ivf(work):
    vp8, vp9 = os.path.join(work, "vp8.ivf"), os.path.join(work, "vp9.ivf")
    ffmpeg(*VIDEO, "-c:v", "libvpx", "-frames:v", "3", "-f", "ivf", vp8)
    ffmpeg(*VIDEO, "-c:v", "libvpx-vp9", "-frames:v", "2", "-f", "ivf", vp9)
    return [vp8, vp9]


def an_mp3(work, name, *args, cover=False):
    path = os.path.join(work, name)
    inputs = [*AUDIO]
    if cover:
        inputs += ["-i", a_picture(work), "-map", "0:a", "-map", "1:v", "-c:v", "copy",
                   "-metadata:s:v", "title=Album cover", "-metadata:s:v", "comment=Cover (front)"]
    ffmpeg(*inputs, "-c:a", "libmp3lame", "-b:a", "32k", "-metadata", "title=Differential",
           "-metadata", "artist=skelcodec", "-metadata", "album=Kaitai", "-metadata", "track=3",
           "-metadata", "comment=made by ffmpeg", "-metadata", "TXXX=user text", *args, path)
    return path


def make_id3v2_3(work):
    return [an_mp3(work, "v23.mp3", "-id3v2_version", "3"),
            an_mp3(work, "v23-cover.mp3", "-id3v2_version", "3", cover=True)]


def make_id3v2_4(work):
    return [an_mp3(work, "v24.mp3", "-id3v2_version", "4"),
            an_mp3(work, "v24-cover.mp3", "-id3v2_version", "4", cover=True)]


def make_id3v1(work):
    return [an_mp3(work, "v1.mp3", "-id3v2_version", "0", "-write_id3v1", "1")]


# --- archives ---------------------------------------------------------------------------------

def make_gzip(work):
    tree = a_source_tree(work)
    named = os.path.join(work, "hello.txt.gz")
    with open(named, "wb") as f:
        f.write(run("gzip", "-9", "-c", os.path.join(tree, "hello.txt")))
    py = os.path.join(work, "python.gz")
    with gzip.GzipFile(py, "wb", mtime=0) as f:
        f.write(bytes(range(256)) * 10)
    return [named, py]


def make_zip(work):
    tree = a_source_tree(work)
    deflated, stored, py = (os.path.join(work, n) for n in ("deflated.zip", "stored.zip", "python.zip"))
    run("zip", "-q", "-r", "-y", deflated, ".", cwd=tree)
    run("zip", "-q", "-r", "-0", "-z", stored, ".", cwd=tree, stdin=b"an archive comment\n")
    import zipfile
    with zipfile.ZipFile(py, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("a.txt", "python's zipfile\n" * 10)
        z.writestr("dir/b.bin", bytes(range(100)))
    return [deflated, stored, py]


def make_cpio(work):
    tree = a_source_tree(work)
    names = subprocess.run(["find", "."], cwd=tree, capture_output=True).stdout
    path = os.path.join(work, "old-binary.cpio")
    with open(path, "wb") as f:
        f.write(run("cpio", "--quiet", "-o", "-H", "bin", cwd=tree, stdin=names))
    return [path]


RPM_SPEC = """\
Name: differential-{name}
Version: 1.2.3
Release: 4
Summary: A package made for skelcodec's differential test
License: MIT
URL: https://example.org/differential
{arch}
%description
A small package of the differential test: {what}.

%install
mkdir -p %{{buildroot}}/usr/share/differential %{{buildroot}}/usr/bin
printf 'hello, differential world\\n%.0s' $(seq 20) > %{{buildroot}}/usr/share/differential/hello.txt
head -c 3000 /dev/zero | tr '\\0' 'x' > %{{buildroot}}/usr/share/differential/{name}.dat
printf '#!/bin/sh\\necho differential\\n' > %{{buildroot}}/usr/bin/differential-{name}
chmod 755 %{{buildroot}}/usr/bin/differential-{name}

%files
/usr/share/differential
/usr/bin/differential-{name}

%changelog
* Tue Jan 02 2024 Differential <differential@example.org> - 1.2.3-4
- First package.
"""


def make_rpm(work):
    """rpmbuild of two small packages: one for the build machine's architecture with the default
    payload compression (zstd) and its source package, one noarch with a gzip payload."""
    top = os.path.join(work, "rpmbuild")
    shutil.rmtree(top, ignore_errors=True)
    out = []
    for name, arch, payload, what in [("binary", "", "w19.zstdio", "the default architecture, zstd payload"),
                                      ("noarch", "BuildArch: noarch\n", "w9.gzdio", "noarch, gzip payload")]:
        spec = os.path.join(work, f"{name}.spec")
        with open(spec, "w") as f:
            f.write(RPM_SPEC.format(name=name, arch=arch, what=what))
        run("rpmbuild", "-ba", "--nodeps", "--quiet", "--define", f"_topdir {top}",
            "--define", f"_binary_payload {payload}", "--define", "_build_id_links none", spec)
    out += sorted(glob.glob(os.path.join(top, "RPMS", "*", "*.rpm")))
    out += sorted(glob.glob(os.path.join(top, "SRPMS", "*.rpm")))[:1]
    return out


def make_ext2(work):
    tree = a_source_tree(work)
    out = []
    for name, args in [("ext2-1k.img", ["-b", "1024"]), ("ext2-4k.img", ["-b", "4096"])]:
        path = os.path.join(work, name)
        if os.path.exists(path):
            os.remove(path)
        run("mkfs.ext2", "-q", "-F", *args, "-d", tree, "-E", "root_owner=0:0", path, "1024k" if "4k" not in name else "2000k")
        out.append(path)
    return out


def make_android_sparse(work):
    out = []
    for image in make_ext2(work):
        path = image.replace(".img", ".simg")
        run("img2simg", image, path)
        out.append(path)
    return out


def make_android_img(work):
    kernel, ramdisk = os.path.join(work, "kernel"), os.path.join(work, "ramdisk")
    with open(kernel, "wb") as f:
        f.write(b"\x7fKERNEL" + bytes(range(256)) * 20)
    with open(ramdisk, "wb") as f:
        f.write(gzip.compress(b"ramdisk" * 100, mtime=0))
    out = []
    for version in (0, 1, 2):
        path = os.path.join(work, f"boot-v{version}.img")
        args = ["--kernel", kernel, "--ramdisk", ramdisk, "--cmdline", "console=ttyS0",
                "--header_version", version, "--os_version", "12.0.0", "--os_patch_level", "2024-01",
                "-o", path]
        if version == 2:
            dtb = make_dtb(work)[0]
            args += ["--dtb", dtb]
        run("mkbootimg", *args)
        out.append(path)
    return out


def make_cramfs(work):
    path = os.path.join(work, "tree.cramfs")
    run("mkfs.cramfs", "-n", "differential", a_source_tree(work), path)
    return [path]


def make_vfat(work):
    tree = a_source_tree(work)
    out = []
    # FAT32 needs 65525 clusters (33 MB at least): too large for this test's files.
    for fat, size in (("12", 1440), ("16", 2100)):
        path = os.path.join(work, f"fat{fat}.img")
        if os.path.exists(path):
            os.remove(path)
        run("mkfs.vfat", "-C", "-F", fat, "-s", "1", "-n", f"FAT{fat}", "-i", "12345678", path, size)
        run("mcopy", "-i", path, "-s", os.path.join(tree, "hello.txt"), os.path.join(tree, "sub"), "::")
        out.append(path)
    return out


def make_iso9660(work):
    tree = a_source_tree(work)
    out = []
    for name, args in [("plain.iso", []), ("rock-ridge.iso", ["-R"]), ("joliet.iso", ["-J", "-R"])]:
        path = os.path.join(work, name)
        run("genisoimage", "-quiet", "-V", "DIFFERENTIAL", *args, "-o", path, tree)
        out.append(path)
    return out


def an_empty_disk(work, name, size_mib=2):
    path = os.path.join(work, name)
    with open(path, "wb") as f:
        f.truncate(size_mib * 1024 * 1024)
    return path


def make_gpt(work):
    two, five = an_empty_disk(work, "gpt.img"), an_empty_disk(work, "gpt-five.img")
    run("sgdisk", "-a", "1", "-n", "1:34:1000", "-t", "1:8300", "-c", "1:first", "-n", "2:1001:0", "-t", "2:ef00",
        "-c", "2:EFI system", "-U", "11111111-2222-3333-4444-555555555555", two)
    args = []
    for i in range(1, 6):
        args += ["-n", f"{i}:{34 + (i - 1) * 600}:{33 + i * 600}", "-c", f"{i}:partition {i}", "-A", f"{i}:set:2"]
    run("sgdisk", "-a", "1", *args, five)
    return [two, five]


def make_mbr(work):
    two, extended = an_empty_disk(work, "mbr.img"), an_empty_disk(work, "mbr-extended.img")
    run("sfdisk", "--quiet", "--no-reread", two, stdin=b"label: dos\nlabel-id: 0x12345678\n"
        b"start=63, size=1000, type=83, bootable\nstart=1100, size=2000, type=c\n")
    run("sfdisk", "--quiet", "--no-reread", extended, stdin=b"label: dos\n"
        b"start=2048, size=500, type=7\nstart=2600, size=1400, type=5\nstart=2700, size=300, type=82\n")
    return [two, extended]


def a_raw_disk(work):
    path = os.path.join(work, "disk.raw")
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(b"disk image content " * 3000)
            f.truncate(4 * 1024 * 1024)
    return path


def make_vdi(work):
    dynamic, static = os.path.join(work, "dynamic.vdi"), os.path.join(work, "static.vdi")
    run("qemu-img", "convert", "-O", "vdi", a_raw_disk(work), dynamic)
    run("qemu-img", "create", "-q", "-f", "vdi", "-o", "static=on", static, "1M")
    return [dynamic, static]


def make_vmdk(work):
    out = []
    for sub in ("monolithicSparse", "streamOptimized"):
        path = os.path.join(work, f"{sub}.vmdk")
        run("qemu-img", "convert", "-O", "vmdk", "-o", f"subformat={sub}", a_raw_disk(work), path)
        out.append(path)
    return out


def make_luks(work):
    out = []
    for name, args in [("luks1.img", []),
                       ("luks1-cbc-sha512.img", ["--cipher", "aes-cbc-essiv:sha256", "--key-size", "256",
                                                 "--hash", "sha512"])]:
        path = os.path.join(work, name)
        with open(path, "wb") as f:
            f.truncate(2 * 1024 * 1024)
        run("cryptsetup", "luksFormat", "--batch-mode", "--type", "luks1", "--pbkdf-force-iterations", "1000",
            *args, "--key-file", "-", path, stdin=b"differential")
        out.append(path)
    return out


def make_lvm2(work):
    """LVM physical volumes on a loop device backed by a 3 MiB file: one in a volume group with
    two logical volumes (created inactive: activation needs device-mapper, which the test does
    not use), one without a volume group. Needs root (losetup); LVM is told to look at the loop
    device only and to keep no metadata backups in /etc/lvm."""
    if shutil.which("losetup") is None or shutil.which("pvcreate") is None:
        raise Skip("losetup or LVM (lvm2) is not installed")
    config = "global{activation=0} backup{backup=0 archive=0} devices{obtain_device_list_from_udev=0}"
    out = []
    for name, vg in (("vg-two-lvs.img", "differential"), ("pv-only.img", None)):
        path = an_empty_disk(work, name, size_mib=3)
        loop = run("losetup", "--find", "--show", path).decode().strip()
        try:
            lvm = ["--devices", loop, "--config", config]
            run("pvcreate", *lvm, "-y", loop)
            if vg:
                run("vgcreate", *lvm, "-s", "512k", vg, loop)
                run("lvcreate", *lvm, "-an", "-Zn", "-y", "-n", "data", "-L", "1m", vg)
                run("lvcreate", *lvm, "-an", "-Zn", "-y", "-n", "rest", "-l", "100%FREE", vg)
        finally:
            subprocess.run(["losetup", "-d", loop], capture_output=True)
        out.append(path)
    return out


def make_uimage(work):
    kernel = os.path.join(work, "kernel.bin")
    with open(kernel, "wb") as f:
        f.write(bytes(range(256)) * 16)
    out = []
    for name, args in [("kernel.uimg", ["-A", "arm", "-O", "linux", "-T", "kernel", "-C", "none",
                                        "-a", "0x8000", "-e", "0x8000", "-n", "Differential kernel"]),
                       ("ramdisk.uimg", ["-A", "arm64", "-O", "linux", "-T", "ramdisk", "-C", "gzip",
                                         "-n", "ramdisk"])]:
        path = os.path.join(work, name)
        run("mkimage", *args, "-d", kernel, path)
        out.append(path)
    return out


# --- executables, fonts, hardware ------------------------------------------------------------

def make_elf(work):
    out = []
    for name in ("true", "cat", "env"):
        path = shutil.which(name)
        if path:
            out.append(os.path.realpath(path))
    libs = [p for p in find("/usr/lib/x86_64-linux-gnu/*.so*") if os.path.getsize(p) < 200_000]
    out += spread(libs, 2)
    src = os.path.join(work, "object.c")
    with open(src, "w") as f:
        f.write("int counter = 3; static const char text[] = \"differential\";\n"
                "int next(int x) { return x + counter + text[0]; }\n")
    obj = os.path.join(work, "object.o")
    try:
        run("cc", "-c", "-g", "-O1", src, "-o", obj)
        out.append(obj)
    except (Skip, RuntimeError):
        pass
    return out


def make_java_class(work):
    src = os.path.join(work, "Differential.java")
    with open(src, "w") as f:
        f.write(textwrap.dedent("""\
            import java.util.List;
            public class Differential implements Runnable {
                public static final long BIG = 1L << 40;
                static final double PI = 3.14159;
                static final float F = 2.5f;
                static final String NAME = "kaitai \\u00e9t\\u00e9";
                enum Colour { RED, GREEN }
                interface Shape { double area(); }
                class Inner { int x = 1; }
                private final List<String> names;
                Differential(List<String> names) { this.names = names; }
                public void run() { for (String n : names) System.out.println(n + BIG); }
                @Deprecated public static int sum(int... xs) { int s = 0; for (int x : xs) s += x; return s; }
                public static void main(String[] args) { new Differential(List.of(args)).run(); }
            }
            """))
    classes = os.path.join(work, "classes")
    os.makedirs(classes, exist_ok=True)
    run("javac", "-g", "-d", classes, src)
    return sorted(glob.glob(os.path.join(classes, "*.class")))


SMALI = {
    "Differential.smali": """\
        .class public LDifferential;
        .super Ljava/lang/Object;
        .implements Ljava/lang/Runnable;
        .source "Differential.java"

        .field public static final BIG:J = 0x10000000000L
        .field static final NAME:Ljava/lang/String; = "kaitai \\u00e9t\\u00e9"
        .field private final names:[Ljava/lang/String;
        .field private count:I

        .method public constructor <init>([Ljava/lang/String;)V
            .registers 2
            invoke-direct {p0}, Ljava/lang/Object;-><init>()V
            iput-object p1, p0, LDifferential;->names:[Ljava/lang/String;
            return-void
        .end method

        .method public run()V
            .registers 6
            iget-object v0, p0, LDifferential;->names:[Ljava/lang/String;
            array-length v1, v0
            const/4 v2, 0x0
            :loop
            if-ge v2, v1, :done
            aget-object v3, v0, v2
            sget-object v4, Ljava/lang/System;->out:Ljava/io/PrintStream;
            invoke-virtual {v4, v3}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
            add-int/lit8 v2, v2, 0x1
            goto :loop
            :done
            return-void
        .end method

        .method public static sum([I)I
            .registers 5
            const/4 v0, 0x0
            array-length v1, p0
            const/4 v2, 0x0
            :loop
            if-ge v2, v1, :done
            aget v3, p0, v2
            add-int/2addr v0, v3
            add-int/lit8 v2, v2, 0x1
            goto :loop
            :done
            return v0
        .end method
        """,
    "Differential$Colour.smali": """\
        .class final enum LDifferential$Colour;
        .super Ljava/lang/Enum;

        .field public static final enum RED:LDifferential$Colour;
        .field public static final enum GREEN:LDifferential$Colour;

        .method private constructor <init>(Ljava/lang/String;I)V
            .registers 3
            invoke-direct {p0, p1, p2}, Ljava/lang/Enum;-><init>(Ljava/lang/String;I)V
            return-void
        .end method
        """,
    "Shape.smali": """\
        .class public interface abstract LShape;
        .super Ljava/lang/Object;

        .method public abstract area()D
        .end method
        """,
}


def make_dex(work):
    """smali (the assembler of Dalvik bytecode) of small classes: one class alone, then three
    (a class with fields, constants and loops, an enum, an interface) in one file."""
    sources = []
    for name, text in SMALI.items():
        path = os.path.join(work, name)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
        sources.append(path)
    one, three = os.path.join(work, "one.dex"), os.path.join(work, "three.dex")
    run("smali", "assemble", "-o", one, sources[0])
    run("smali", "assemble", "--api", "26", "-o", three, *sources)
    return [one, three]


def make_pcf(work):
    fonts = find("/usr/share/fonts/X11/misc/*.pcf.gz")
    if not fonts:
        raise Skip("no X11 PCF fonts installed (xfonts-base)")
    out = []
    for font in spread(sorted(fonts, key=os.path.getsize)[:200], 3):
        path = os.path.join(work, os.path.basename(font)[:-3])
        with gzip.open(font) as src, open(path, "wb") as dst:
            dst.write(src.read())
        out.append(path)
    return out


def make_grub2_font(work):
    ttfs = find("/usr/share/fonts/**/*.ttf")
    if not ttfs:
        raise Skip("no TrueType font installed")
    out = []
    for size in (10, 16):
        path = os.path.join(work, f"font-{size}.pf2")
        run("grub-mkfont", "-s", size, "-r", "0x20-0x7e", "-o", path, ttfs[0])
        out.append(path)
    return out


def make_dtb(work):
    out = []
    for name, body in [("board", """
        / { model = "differential board"; compatible = "skelcodec,diff"; #address-cells = <1>; #size-cells = <1>;
            memory@0 { device_type = "memory"; reg = <0x0 0x10000000>; };
            chosen { bootargs = "console=ttyS0"; };
            soc { uart0: serial@1000 { compatible = "ns16550a"; reg = <0x1000 0x100>; status = "okay"; }; };
            aliases { serial0 = &uart0; };
        };"""), ("reserved", """
        /memreserve/ 0x10000 0x1000;
        / { empty-prop; bytes = [01 02 03]; strings = "a", "bc"; };""")]:
        dts, path = os.path.join(work, name + ".dts"), os.path.join(work, name + ".dtb")
        with open(dts, "w") as f:
            f.write("/dts-v1/;\n" + textwrap.dedent(body) + "\n")
        run("dtc", "-I", "dts", "-O", "dtb", "-q", "-o", path, dts)
        out.append(path)
    return out


# --- network, security, serialization, logs ---------------------------------------------------

def capture(path, bpf_filter, traffic):
    """tcpdump on the loopback interface while `traffic()` runs."""
    proc = subprocess.Popen(["tcpdump", "-i", "lo", "-U", "-c", "30", "-s", "200", "-w", path, bpf_filter],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import time
        time.sleep(1.0)
        traffic()
        time.sleep(1.0)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    return path


def make_pcap(work):
    if shutil.which("tcpdump") is None:
        raise Skip("tcpdump is not installed")
    import socket

    def udp():
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        for i in range(5):
            sock.sendto(b"differential %d" % i, ("127.0.0.1", 9))
        sock.close()

    def tcp():
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        client = socket.create_connection(server.getsockname())
        conn, _ = server.accept()
        client.sendall(b"hello over tcp")
        conn.recv(100)
        client.close()
        conn.close()
        server.close()

    return [capture(os.path.join(work, "udp-icmp.pcap"), "host 127.0.0.1 and not tcp", udp),
            capture(os.path.join(work, "tcp.pcap"), "tcp and host 127.0.0.1", tcp)]


def make_ssh_public_key(work):
    out = []
    for kind, bits in (("rsa", "1024"), ("ecdsa", "256"), ("ed25519", None)):
        key = os.path.join(work, f"id_{kind}")
        for p in (key, key + ".pub"):
            if os.path.exists(p):
                os.remove(p)
        run("ssh-keygen", "-q", "-t", kind, *(["-b", bits] if bits else []), "-N", "", "-C", "differential", "-f", key)
        with open(key + ".pub") as f:
            blob = base64.b64decode(f.read().split()[1])
        path = os.path.join(work, f"{kind}.key")
        with open(path, "wb") as f:
            f.write(blob)
        out.append(path)
    return out


def make_der(work):
    out = []
    for pem in spread(find("/etc/ssl/certs/*.pem"), 3):
        path = os.path.join(work, os.path.basename(pem)[:-4] + ".der")
        run("openssl", "x509", "-in", pem, "-outform", "DER", "-out", path)
        out.append(path)
    key = os.path.join(work, "ec-key.der")
    run("openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-outform", "DER", "-out", key)
    out.append(key)
    return out


def make_sqlite(work):
    import sqlite3
    out = []
    for page_size in (512, 1024, 4096):
        path = os.path.join(work, f"table-{page_size}.sqlite")
        if os.path.exists(path):
            os.remove(path)
        c = sqlite3.connect(path)
        c.execute(f"pragma page_size = {page_size}")
        c.execute("create table t (id integer primary key, n integer, s text, b blob, r real, z)")
        for i in range(60):
            c.execute("insert into t (n, s, b, r, z) values (?, ?, ?, ?, ?)",
                      (i * 7919 - 100000 * (i % 3), "row %d " % i * (i % 5), bytes(range(i % 17)), i / 7, None))
        c.execute("create index t_n on t (n)")
        c.commit()
        c.close()
        out.append(path)
    path = os.path.join(work, "cli.db")
    if os.path.exists(path):
        os.remove(path)
    run("sqlite3", path, "create table kv (k text primary key, v) without rowid; "
        "insert into kv values ('a', 1), ('b', x'0102'), ('c', 2.5);")
    return out + [path]


PICKLED = {"list": [1, -2, 3.5, None, True], "text": "gallery", "bytes": b"\x00\x01", "big": 2**70,
           "tuple": (1, "two"), "nested": {"a": [{"b": 1.25}]}, "set": frozenset({1, 2})}


def make_pickle(work):
    import pickle
    out = []
    for protocol in range(6):
        path = os.path.join(work, f"object-{protocol}.pickle")
        with open(path, "wb") as f:
            pickle.dump(PICKLED, f, protocol=protocol)
        out.append(path)
    return out


def make_msgpack(work):
    python = os.path.join(VENV, "bin", "python")
    script = textwrap.dedent("""\
        import msgpack, sys
        docs = {"map.msgpack": {"int": 1, "neg": -33, "big": 2**40, "float": 1.5, "str": "text",
                                "bin": b"\\x00\\x01", "list": [True, False, None], "nested": {"a": [1, 2]}},
                "array.msgpack": list(range(20)) + ["x" * 40, -2**40, 0.25]}
        for name, doc in docs.items():
            with open(sys.argv[1] + "/" + name, "wb") as f:
                f.write(msgpack.packb(doc, use_bin_type=True))
        """)
    run(python, "-c", script, work)
    return [os.path.join(work, "map.msgpack"), os.path.join(work, "array.msgpack")]


def make_ruby_marshal(work):
    out = []
    for name, expr in [("hash.marshal", '{"a" => 1, :sym => [1, -300, 2**40, 1.5, nil, true], "s" => "text"}'),
                       ("struct.marshal", 'Struct.new("Point", :x, :y).new(3, -4)'),
                       ("string.marshal", '"plain \\xff".b')]:
        path = os.path.join(work, name)
        run("ruby", "-e", f"File.binwrite(ARGV[0], Marshal.dump({expr}))", path)
        out.append(path)
    return out


def make_protobuf(work):
    proto = os.path.join(work, "differential.proto")
    with open(proto, "w") as f:
        f.write(textwrap.dedent("""\
            syntax = "proto3";
            message Inner { string name = 1; repeated int32 values = 2; }
            message Outer {
              int32 small = 1; int64 negative = 2; uint64 big = 3; sint32 zigzag = 4;
              fixed32 f32 = 5; fixed64 f64 = 6; double real = 7; float single = 8;
              bool flag = 9; string text = 10; bytes blob = 11; Inner inner = 12;
              repeated Inner many = 13; repeated uint32 packed = 14;
            }
            """))
    out = []
    for name, text in [("outer.pb", 'small: 150 negative: -2 big: 18446744073709551615 zigzag: -3 '
                                    'f32: 7 f64: 9 real: 1.5 single: 2.25 flag: true text: "protobuf" '
                                    'blob: "\\000\\001" inner { name: "in" values: [1, 2, 3] } '
                                    'many { name: "a" } many { name: "b" values: 300 } packed: [1, 1000, 100000]'),
                       ("inner.pb", 'name: "only the inner message" values: [-1, 0, 1]')]:
        path = os.path.join(work, name)
        message = "Inner" if name == "inner.pb" else "Outer"
        with open(path, "wb") as f:
            f.write(run("protoc", f"--proto_path={work}", f"--encode={message}", proto, stdin=text.encode()))
        out.append(path)
    return out


def make_php(work):
    out = []
    for name, expr in [("array.ser", '["a" => 1, "b" => [true, false, null], 3 => -2.5, "s" => "text"]'),
                       ("object.ser", '(object)["x" => 1, "y" => "two"]'),
                       ("string.ser", '"plain string"')]:
        path = os.path.join(work, name)
        with open(path, "wb") as f:
            f.write(run("php", "-r", f"echo serialize({expr});"))
        out.append(path)
    return out


def make_efivar(work):
    """A signature list as efivarfs shows a UEFI variable: its 4-byte attributes (non-volatile,
    boot and run-time access, time-based authenticated writes), then the list that efitools'
    cert-to-efi-sig-list makes of a certificate openssl made."""
    key, cert = os.path.join(work, "db.key"), os.path.join(work, "db.crt")
    run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=differential db/",
        "-days", "365", "-keyout", key, "-out", cert)
    esl = os.path.join(work, "db.esl")
    run("cert-to-efi-sig-list", "-g", "11111111-2222-3333-4444-555555555555", cert, esl)
    path = os.path.join(work, "db-var.bin")
    with open(esl, "rb") as src, open(path, "wb") as f:
        f.write((0x27).to_bytes(4, "little") + src.read())
    return [path]


def make_dicom(work):
    jpg = os.path.join(work, "picture.jpg")
    run(CONVERT, a_picture(work), jpg)
    out = []
    for name, args in [("image.dcm", []), ("no-padding.dcm", ["-p"])]:
        path = os.path.join(work, name)
        run("img2dcm", *args, "-k", "PatientName=Differential^Test", jpg, path)
        out.append(path)
    return out


def make_mcap(work):
    """The mcap package's Writer (installed in the venv by kaitai/setup.sh): a chunked file
    (zstd, the default, and uncompressed chunks) with two channels and their schemas, an
    attachment and metadata, and an unchunked one."""
    python = os.path.join(VENV, "bin", "python")
    script = textwrap.dedent("""\
        import json, sys
        from mcap.writer import Writer, CompressionType
        for name, chunked, compression in [("chunked-zstd.mcap", True, CompressionType.ZSTD),
                                           ("chunked-none.mcap", True, CompressionType.NONE),
                                           ("unchunked.mcap", False, CompressionType.NONE)]:
            with open(sys.argv[1] + "/" + name, "wb") as f:
                w = Writer(f, use_chunking=chunked, compression=compression, chunk_size=600)
                w.start(profile="differential", library="skelcodec test")
                schema = w.register_schema(name="Point", encoding="jsonschema",
                                           data=json.dumps({"type": "object"}).encode())
                points = w.register_channel(topic="/points", message_encoding="json", schema_id=schema,
                                            metadata={"unit": "m"})
                raw = w.register_channel(topic="/raw", message_encoding="cdr", schema_id=0)
                for i in range(30):
                    w.add_message(points, log_time=1_000_000_000 + i * 1000, publish_time=1_000_000_000 + i * 1000,
                                  data=json.dumps({"x": i, "y": -i}).encode(), sequence=i)
                    if i % 3 == 0:
                        w.add_message(raw, log_time=1_000_000_000 + i * 1000 + 1, publish_time=0,
                                      data=bytes(range(i)), sequence=i // 3)
                w.add_attachment(create_time=1, log_time=2, name="note.txt", media_type="text/plain",
                                 data=b"an attachment")
                w.add_metadata(name="run", data={"by": "differential", "n": "30"})
                w.finish()
        """)
    run(python, "-c", script, work)
    return [os.path.join(work, n) for n in ("chunked-zstd.mcap", "chunked-none.mcap", "unchunked.mcap")]


def make_utmp(work):
    path = os.path.join(work, "wtmp")
    records = (
        "[2] [00000] [~~  ] [reboot  ] [~           ] [6.1.0-differential  ] [0.0.0.0        ] [2024-01-02T03:04:05,000000+00:00]\n"
        "[7] [01234] [ts/0] [alice   ] [pts/0       ] [192.168.0.2         ] [192.168.0.2    ] [2024-01-02T03:05:00,123456+00:00]\n"
        "[8] [01234] [ts/0] [        ] [pts/0       ] [                    ] [0.0.0.0        ] [2024-01-02T04:00:00,000000+00:00]\n"
    )
    with open(path, "wb") as f:
        f.write(run("utmpdump", "-r", stdin=records.encode()))
    return [path]


def gather(fmt, recipe, out_dir, per_format, work_root):
    found, made, problems = [], [], []
    work = os.path.join(work_root, fmt)
    os.makedirs(work, exist_ok=True)
    for word in recipe.split():
        kind, _, arg = word.partition(":")
        if kind == "find":
            found += find(arg)
        elif kind == "make":
            maker = globals().get(f"make_{arg}")
            try:
                if maker is None:
                    raise Skip(f"no recipe make:{arg}")
                made += maker(work)
            except Skip as e:
                problems.append(f"make:{arg} skipped: {e}")
            except Exception as e:
                problems.append(f"make:{arg} failed: {type(e).__name__}: {e}")
    made = [p for p in made if os.path.isfile(p) and MIN_SIZE <= os.path.getsize(p) <= MAX_SIZE]
    chosen = made[:per_format]
    found = [p for p in found if p not in chosen]
    chosen += spread(found, per_format - len(chosen))
    target = os.path.join(out_dir, fmt)
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(target)
    files = []
    for i, path in enumerate(chosen):
        name = f"{i}-{os.path.basename(path)}"
        shutil.copyfile(path, os.path.join(target, name))
        files.append({"file": os.path.join(target, name), "source": path,
                      "origin": "made" if path in made else "found"})
    return files, problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="/tmp/differential/files")
    parser.add_argument("--per-format", type=int, default=5)
    parser.add_argument("--only", default="")
    parser.add_argument("--formats", default=os.path.join(HERE, "formats.tsv"))
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    work_root = os.path.join(os.path.dirname(args.out.rstrip("/")), "work")
    os.makedirs(args.out, exist_ok=True)
    index_path = os.path.join(args.out, "files.json")
    index = {}
    if only and os.path.exists(index_path):
        with open(index_path) as f:
            index = json.load(f)
    with open(args.formats) as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]
    for row in rows:
        schema, recipe = row[0], row[1] if len(row) > 1 else ""
        fmt = os.path.basename(schema)[: -len(".ksy")]
        if only and fmt not in only:
            continue
        files, problems = gather(fmt, recipe, args.out, args.per_format, work_root)
        index[fmt] = {"schema": schema, "files": files, "problems": problems}
        note = "; ".join(problems)
        print(f"files: {fmt:24} {len(files)}{'  (' + note + ')' if note else ''}", file=sys.stderr)
    with open(index_path, "w") as f:
        json.dump(index, f, indent=1)


if __name__ == "__main__":
    main()
