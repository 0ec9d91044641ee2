# usage: zsh -f zsh-capture.zsh <script | directory holding _sched> <line>
# Types <line> and TAB into an interactive zsh on a pseudo-terminal (zpty) and prints the
# candidates its completion system offers, one per line. A script is sourced; a directory is
# put on $fpath, so _sched is autoloaded the way an installed completion is.
zmodload zsh/zpty || exit 3
if [[ -d $1 ]]; then
  load="fpath=(${(q)1} \$fpath); autoload -Uz compinit && compinit -u -d ${TMPDIR:-/tmp}/sched-zcompdump-fpath"
else
  load="autoload -Uz compinit && compinit -u -d ${TMPDIR:-/tmp}/sched-zcompdump; source ${(q)1}"
fi
cat > ${TMPDIR:-/tmp}/capture-$$.zsh <<SETUP
PROMPT=''
RPROMPT=''
unsetopt beep
$load
typeset -aU __captured
compadd () {
  # Calls that only collect matches (-O/-A/-D) offer nothing: pass them through.
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "\$@"; return; fi
  local -a hits
  builtin compadd -O hits "\$@"
  __captured+=("\$hits[@]")
  builtin compadd "\$@"
}
_capture () {
  __captured=()
  _main_complete
  print -n \$'\\\\C-B'
  print -nlr -- "\$__captured[@]"
  print -n \$'\\\\C-C'
}
zle -C capture complete-word _capture
bindkey '^I' capture
print CAPTURE-READY
SETUP
zpty z zsh -f -i
zpty -w z "source ${TMPDIR:-/tmp}/capture-$$.zsh"
zpty -r z REPLY '*CAPTURE-READY*'
zpty -r z REPLY $'*\n'
zpty -w -n z "$2"$'\t'
zpty -r z REPLY $'*\C-B'
zpty -r z REPLY $'*\C-C'
print -r -- "${REPLY%$'\C-C'}"
zpty -d z
rm -f ${TMPDIR:-/tmp}/capture-$$.zsh
