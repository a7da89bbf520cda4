# Script mode (ctest capi.doc_example): docs/c-api.md quotes tests/capi/example.c whole, in the
# ```c block after the line "<!-- tests/capi/example.c -->"; fails when the two differ, so that
# the doc shows the program that capi.example compiles and runs. Variables: DOC, EXAMPLE.
file(READ ${DOC} doc)
file(READ ${EXAMPLE} example)
string(FIND "${doc}" "<!-- tests/capi/example.c -->\n```c\n" start)
if(start EQUAL -1)
  message(FATAL_ERROR "${DOC}: no \"<!-- tests/capi/example.c -->\" followed by a ```c block")
endif()
string(LENGTH "<!-- tests/capi/example.c -->\n```c\n" skip)
math(EXPR start "${start} + ${skip}")
string(SUBSTRING "${doc}" ${start} -1 rest)
string(FIND "${rest}" "```\n" end)
string(SUBSTRING "${rest}" 0 ${end} quoted)
if(NOT quoted STREQUAL example)
  message(FATAL_ERROR "${DOC} quotes tests/capi/example.c, but not as it is now: copy it again")
endif()
