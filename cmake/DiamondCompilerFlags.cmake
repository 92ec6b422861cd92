# Warnings for every target of the project.
add_compile_options(-Wall -Wextra)

# Strict Qt: applied to every target that links Qt through diamond_qt_strict().
set(DIAMOND_QT_DEFINES
    QT_NO_KEYWORDS
    QT_NO_CAST_FROM_ASCII
    QT_NO_CAST_TO_ASCII
    QT_NO_URL_CAST_FROM_STRING
    QT_NO_CAST_FROM_BYTEARRAY
    QT_USE_QSTRINGBUILDER)

function(diamond_qt_strict target)
  target_compile_definitions(${target} PRIVATE ${DIAMOND_QT_DEFINES})
endfunction()
