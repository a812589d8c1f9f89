#!/usr/bin/env bash
# Installs, from Debian's packages, the producers files.py runs to make real files (as root;
# run.sh calls it with --install-tools). A package that cannot be installed is named and skipped:
# the formats whose files it makes then get fewer files (files.json says which recipe failed).
set -uo pipefail
packages=(
    imagemagick libimage-exiftool-perl colord-data      # PNG, GIF, JPEG (EXIF, ICC v4), ICO, BMP, TGA, PCX, XWD, EXIF, ICC
    sox libsox-fmt-all ffmpeg                           # WAV, AU, VOC, Ogg, AVI, MOV/MP4, IVF, MP3 with ID3 tags
    zip cpio android-sdk-libsparse-utils mkbootimg      # ZIP, cpio, Android sparse and boot images
    sqlite3 openjdk-17-jdk-headless gcc                 # SQLite, Java class files, an ELF object file
    e2fsprogs util-linux dosfstools mtools genisoimage   # ext2, cramfs and utmp, FAT, ISO 9660
    gdisk fdisk qemu-utils cryptsetup-bin u-boot-tools  # GPT, MBR, VDI/VMDK, LUKS, uImage
    xfonts-base grub-common device-tree-compiler        # PCF fonts, GRUB fonts, device trees
    tcpdump openssh-client openssl ruby                 # pcap, SSH keys, DER, Ruby's Marshal
    protobuf-compiler php-cli efitools dcmtk            # protobuf, PHP's serialize, EFI signature lists, DICOM
    rpm libsmali-java lvm2 chromium                     # RPM (rpmbuild), DEX (smali), LVM2, Chromium's .pak
    gdal-bin clang lld llvm parted                      # shapefiles, DBF, NITF; Mach-O (and fat), .res (llvm-rc); APM
    cc65 pasmo zmakebas jlha-utils                      # iNES, 6502 code; ZX Spectrum TAP; LZH
    msitools libgsf-bin abcmidi                         # compound files (MSI, OLE2); MIDI
    freedoom gimp-data btrfs-progs xorriso              # Doom WAD and GENMIDI; GIMP brushes; btrfs send; zisofs
)
export DEBIAN_FRONTEND=noninteractive
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && { echo "tools: all installed"; exit 0; }
apt-get update -qq || true
if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null; then
    for p in "${missing[@]}"; do
        apt-get install -y -qq --no-install-recommends "$p" > /dev/null || echo "tools: $p could not be installed (skipped)" >&2
    done
fi
echo "tools: installed ${missing[*]}"
