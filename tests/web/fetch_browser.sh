#!/bin/sh
# A headless Chromium for the browser tests, from Debian's own packages, without root and without a browser
# vendor's download: apt-get reads the package lists into a private directory, downloads
# chromium-headless-shell and whatever it needs that this machine lacks, and dpkg-deb unpacks them into DEST
# (git-ignored). DEST/env then names the executable and the library path it runs with.
set -eu
dest=${1:-.browser}
case $dest in /*) ;; *) dest=$PWD/$dest ;; esac
work=$dest.partial
rm -rf "$work"
mkdir -p "$work/apt/state/lists/partial" "$work/apt/cache/archives/partial" "$work/root"
apt_opts="-o Dir::State=$work/apt/state -o Dir::State::status=/var/lib/dpkg/status -o Dir::Cache=$work/apt/cache
 -o Debug::NoLocking=1 -o APT::Sandbox::User=$(id -un) -q"
# shellcheck disable=SC2086
apt-get $apt_opts update >/dev/null
# shellcheck disable=SC2086
apt-get $apt_opts -y --no-install-recommends --download-only install chromium-headless-shell >/dev/null
for deb in "$work"/apt/cache/archives/*.deb; do
    dpkg-deb -x "$deb" "$work/root" &  # side by side: unpacking is most of the time
done
wait
downloaded=$(du -sm "$work/apt/cache/archives" | cut -f1)
rm -rf "$work/apt" "$work/root/usr/share/doc" "$work/root/usr/share/man"
lib=$work/root/usr/lib/x86_64-linux-gnu
exe=$work/root/usr/lib/chromium/chromium-headless-shell
LD_LIBRARY_PATH="$lib:$lib/pulseaudio" "$exe" --version >/dev/null
rm -rf "$dest"
mv "$work" "$dest"
lib=$dest/root/usr/lib/x86_64-linux-gnu
{
    echo "BROWSER=$dest/root/usr/lib/chromium/chromium-headless-shell"
    echo "BROWSER_LIBRARY_PATH=$lib:$lib/pulseaudio"
} >"$dest/env"
echo "fetched chromium-headless-shell: ${downloaded} MB downloaded, $(du -sm "$dest" | cut -f1) MB in $dest"
