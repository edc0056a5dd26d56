# Reads and checks a whitespace-separated table for the variants_*.gp scripts, which
# cannot parse comment lines or report a bad row themselves. Usage:
#   awk -v want=WHAT -v spec=SPEC [-v blocks=1] -f info_common.awk -f dat_info.awk FILE
# SPEC gives the kind of each column, one letter per column:
#   s  a word (a name; anything without spaces)
#   n  a number
#   N  a number, or NaN (a missing value: gnuplot leaves a gap)
#   b  0 or 1
# blocks=1: the file holds blocks separated by two blank lines, each starting with a
# header line whose first word names the block (gnuplot's `index` and `columnheader(1)`);
# a single blank line inside a block is an error (gnuplot would read it as a line break).
# Without blocks, blank lines are ignored.
#   want=KEY (anything not below): the value of the first "# KEY: value" comment line
#       before the first row (empty when absent); with -v num=1, "error: REASON" when
#       the value is not a number
#   want=table: "ROWS BLOCKS" then, for each column, "MIN MAX MINPOS" over its numbers
#       (MINPOS: the smallest value > 0, or 0 when none; "0 0 0" for a word column or a
#       column with no number); or "error: REASON" when the file breaks the format.
#   want=names: the first words of the rows (or of the block headers), space-separated
#   want=column (with -v col=K): the K-th words of the rows, space-separated
#   want=levels (with -v xcol=K -v ycol=L -v xfloor=F -v xchar=W -v yline=H): where to put
#       a label (the row's first word) beside each point (x = column K on a log axis, at
#       least F; y = column L), so that labels do not overlap: per row, in file order, a
#       level 0, 1, 2 ... = how many lines above its point the label is lifted. W is the
#       width of a character in decades of x, H the height of a line in units of y; a
#       label starts one character right of its point and is kept off the other points.
#       Greedy, in order of x.
#   want=pairstyle (blocks): per block, two 0-based indices "COLOUR DASH" for a header
#       named SEND/RECV: the part with more distinct values (RECV when equal) picks the
#       colour, the other the dash pattern, each in order of first appearance.
# The checks: every row has exactly length(SPEC) fields of the right kinds, there is at
# least one row (in each block), a "# columns:" line (if any) names length(SPEC)
# columns, and a "# blocks: N" line (if any) matches the blocks found.
# POSIX awk only (no gawk extensions); tested with mawk, Debian's awk. fail, is_number and
# read_meta, and the dropping of a CRLF's \r, are info_common.awk's.

function kind_name(k) {
  return k == "n" ? "a number" : (k == "N" ? "a number or NaN" : (k == "b" ? "0 or 1" : "a word"))
}

function start_block() {
  nblocks++
  block_rows = 0
  name[nblocks] = $1
  if (blocks && is_number($1)) fail("expected a header line naming block " nblocks ", found the number '" $1 "'")
}

BEGIN {
  ncols = length(spec)
  for (i = 1; i <= ncols; i++) {
    kind[i] = substr(spec, i, 1)
    nums[i] = 0
  }
  rows = 0; nblocks = 0; blanks = 0; started = 0; err = ""; declared_blocks = ""
  # A header is expected first: in blocks mode, the first non-comment line is one.
  want_header = blocks ? 1 : 0
}

started == 0 && /^#/ {
  read_meta()
  if (index($0, "# columns:") == 1) {
    c = $0
    sub(/^# columns: */, "", c)
    if (split(c, parts, " ") != ncols) fail("the columns line names " split(c, parts, " ") " columns, expected " ncols)
  }
  if (index($0, "# blocks:") == 1) {
    declared_blocks = $0
    sub(/^# blocks: */, "", declared_blocks)
    if (!is_number(declared_blocks)) fail("'" declared_blocks "' is not a number of blocks")
  }
  next
}

/^#/ { next }  # a comment further down is harmless to gnuplot too

NF == 0 { if (started) blanks++; next }

{
  if (blocks) {
    if (started && blanks == 1) fail("a single blank line inside a block (blocks are separated by two)")
    if (!started || blanks >= 2) {
      if (started && block_rows == 0) fail("block " nblocks " (" name[nblocks] ") has no rows")
      started = 1
      blanks = 0
      start_block()
      next
    }
  }
  started = 1
  blanks = 0
  if (NF != ncols) fail(NF " fields, expected " ncols)
  for (i = 1; i <= ncols; i++) {
    k = kind[i]
    if (k == "s") continue
    if (k == "N" && ($i == "NaN" || $i == "nan")) continue
    if (!is_number($i)) fail("column " i ": '" $i "' is not " kind_name(k))
    v = $i + 0
    if (k == "b" && v != 0 && v != 1) fail("column " i ": '" $i "' is not 0 or 1")
    if (nums[i] == 0 || v < lo[i]) lo[i] = v
    if (nums[i] == 0 || v > hi[i]) hi[i] = v
    if (v > 0 && (!(i in pos) || v < pos[i])) pos[i] = v
    nums[i]++
  }
  rows++
  block_rows++
  if (!blocks) name[rows] = $1
  if (xcol > 0) { px[rows] = $xcol + 0; py[rows] = $ycol + 0 }
  if (col > 0 && col <= NF) cell[rows] = $col
}

END {
  if (want == "table") {
    if (err == "" && rows == 0) err = FILENAME ": no data rows"
    if (err == "" && blocks && block_rows == 0) err = FILENAME ": block " nblocks " (" name[nblocks] ") has no rows"
    if (err == "" && declared_blocks != "" && declared_blocks + 0 != nblocks) \
      err = FILENAME ": " nblocks " blocks, but the blocks line says " declared_blocks
    if (err != "") { print "error: " err; exit }
    line = rows " " (blocks ? nblocks : 1)
    for (i = 1; i <= ncols; i++) {
      if (nums[i] == 0) line = line " 0 0 0"
      else line = line sprintf(" %.17g %.17g %.17g", lo[i], hi[i], (i in pos) ? pos[i] : 0)
    }
    print line
  } else if (want == "levels") {
    for (i = 1; i <= rows; i++) {
      lx[i] = log(px[i] > xfloor ? px[i] : xfloor) / log(10)
      done[i] = 0
    }
    for (n = 1; n <= rows; n++) {
      i = 0  # the leftmost row not placed yet (the first in file order on a tie)
      for (j = 1; j <= rows; j++) if (!done[j] && (i == 0 || lx[j] < lx[i])) i = j
      x0 = lx[i] + xchar; x1 = x0 + length(name[i]) * xchar
      for (lev = 0; ; lev++) {
        y0 = py[i] + (lev + 0.1) * yline; y1 = y0 + 0.95 * yline  # 0.95: touching is no clash
        clash = 0
        for (j = 1; j <= rows; j++) {
          # every point's marker, about a character wide and half a line high
          if (j != i && x0 < lx[j] + 0.7 * xchar && lx[j] - 0.7 * xchar < x1 && \
              y0 < py[j] + 0.3 * yline && py[j] - 0.3 * yline < y1) { clash = 1; break }
          if (!done[j]) continue
          if (x0 < bx1[j] && bx0[j] < x1 && y0 < by1[j] && by0[j] < y1) { clash = 1; break }
        }
        if (!clash) break
      }
      level[i] = lev; bx0[i] = x0; bx1[i] = x1; by0[i] = y0; by1[i] = y1; done[i] = 1
    }
    for (i = 1; i <= rows; i++) line = line (i > 1 ? " " : "") level[i]
    print line
  } else if (want == "column") {
    for (i = 1; i <= rows; i++) line = line (i > 1 ? " " : "") cell[i]
    print line
  } else if (want == "names" || want == "pairstyle") {
    n = blocks ? nblocks : rows
    line = ""
    if (want == "names") {
      for (i = 1; i <= n; i++) line = line (i > 1 ? " " : "") name[i]
      print line
      exit
    }
    nsend = 0; nrecv = 0
    for (i = 1; i <= n; i++) {
      slash = index(name[i], "/")
      send[i] = slash ? substr(name[i], 1, slash - 1) : name[i]
      recv[i] = slash ? substr(name[i], slash + 1) : name[i]
      if (!(send[i] in sidx)) sidx[send[i]] = nsend++
      if (!(recv[i] in ridx)) ridx[recv[i]] = nrecv++
    }
    for (i = 1; i <= n; i++) {
      if (nrecv >= nsend) pair = ridx[recv[i]] " " sidx[send[i]]
      else pair = sidx[send[i]] " " ridx[recv[i]]
      line = line (i > 1 ? " " : "") pair
    }
    print line
  } else if (num && meta != "" && !is_number(meta)) {
    print "error: " FILENAME ": the " want " line: '" meta "' is not a number"
  } else {
    print meta
  }
}
