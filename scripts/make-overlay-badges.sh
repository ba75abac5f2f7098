#!/usr/bin/env bash
# The Windows taskbar's overlay badges (main/desktop/taskbar.ts): a red disc with the count, 1 to 9 and
# "9+", drawn at 32 px (Windows scales it to the taskbar's 16 px at 100%) with ImageMagick. The PNGs are
# committed under build/badges; run this again only to change how they look.
set -euo pipefail
cd "$(dirname "$0")/../build/badges"
FONT=DejaVu-Sans-Bold
for label in 1 2 3 4 5 6 7 8 9 9+; do
  name="badge-${label/+/-plus}.png"
  size=22
  [ "$label" = "9+" ] && size=16
  convert -size 32x32 xc:none -fill '#d32f2f' -draw 'circle 16,16 16,1' \
    -font "$FONT" -pointsize "$size" -fill white -gravity center -annotate +0+1 "$label" \
    -strip "PNG32:$name"
done
