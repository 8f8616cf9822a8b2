; The Windows installer of «Заявка» (issue 29, ADR 33): written for the makensis of Debian's
; `nsis` package, so that it builds offline on Linux (scripts/windows.sh) as on Windows.
;
; What it does for a resident, as Tauri's own NSIS template would, without its plugin DLL:
; - installs for the current user only (no administrator rights), by default into
;   %LOCALAPPDATA%\Programs\Zayavka;
; - puts «Заявка» and «Заявка — командная строка» in the Start menu;
; - registers an uninstaller under «Установленные приложения»;
; - installs a newer version over an older one in the same folder, and asks before a downgrade
;   (a silent install refuses one with exit code 2);
; - never downloads anything: when the WebView2 Runtime is missing, it says where to get it
;   and installs anyway (the command-line tool needs no WebView2);
; - the uninstaller removes the program and its shortcuts and keeps the resident's drafts,
;   settings and profile (%APPDATA%\Zayavka and %LOCALAPPDATA%\Zayavka).
;
; makensis -DVERSION=0.1.0 -DSTAGE=DIR -DOUTFILE=FILE installer.nsi
;   [-DFAST: quick zlib packing instead of solid LZMA, for tests]
;   [-DSIGN=sign.sh: Authenticode on the uninstaller and the installer, packaging/windows/sign.sh]
;   STAGE holds zayavka-desktop.exe, zayavka.exe, WebView2Loader.dll, icon.ico, LICENSE.txt.

; A 64-bit installer, like the app: Debian's nsis ships the amd64 stubs and plugins, and Wine
; without its 32-bit half (Debian's wine64 alone) runs only 64-bit programs.
Target amd64-unicode
ManifestDPIAware true
; What residents download is packed hard; the dev-profile installer of CI's Windows flow
; (scripts/windows.sh --debug, -DFAST) is packed fast: its size says nothing.
!ifdef FAST
SetCompressor zlib
!else
SetCompressor /SOLID lzma
SetCompressorDictSize 64
!endif
; -DSIGN=packaging/windows/sign.sh (scripts/windows.sh, when a certificate is given): the
; uninstaller this script writes and the installer itself are signed as makensis makes them.
!ifdef SIGN
!uninstfinalize 'bash "${SIGN}" "%1"'
!finalize 'bash "${SIGN}" "%1"'
!endif

!include MUI2.nsh
!include LogicLib.nsh
!include WordFunc.nsh
!include FileFunc.nsh
!include WinVer.nsh

!ifndef VERSION
  !error "makensis -DVERSION=X.Y.Z: the version being installed"
!endif
!ifndef STAGE
  !error "makensis -DSTAGE=DIR: the folder with the files to install"
!endif
!ifndef OUTFILE
  !error "makensis -DOUTFILE=FILE: the installer to write"
!endif

!define PRODUCT "Заявка"
!define IDENTIFIER "ru.zayavka.desktop"
!define PUBLISHER "Zayavka"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\${IDENTIFIER}"
; The WebView2 Runtime's client id in EdgeUpdate's registry keys (Microsoft's documented way
; to tell whether the Runtime is installed).
!define WEBVIEW2_CLIENT "{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}"
!define WEBVIEW2_URL "https://developer.microsoft.com/ru-ru/microsoft-edge/webview2/"
!define APP_EXE "zayavka-desktop.exe"
!define CLI_EXE "zayavka.exe"
!define SHORTCUT "$SMPROGRAMS\${PRODUCT}.lnk"
!define CLI_SHORTCUT "$SMPROGRAMS\${PRODUCT} — командная строка.lnk"
!define DESKTOP_SHORTCUT "$DESKTOP\${PRODUCT}.lnk"

Name "${PRODUCT}"
OutFile "${OUTFILE}"
RequestExecutionLevel user
InstallDir "$LOCALAPPDATA\Programs\Zayavka"
InstallDirRegKey HKCU "${UNINSTALL_KEY}" "InstallLocation"
BrandingText "${PRODUCT} ${VERSION}"
ShowInstDetails show
ShowUninstDetails show

VIProductVersion "${VERSION}.0"
VIFileVersion "${VERSION}.0"
VIAddVersionKey /LANG=1049 "ProductName" "${PRODUCT}"
VIAddVersionKey /LANG=1049 "ProductVersion" "${VERSION}"
VIAddVersionKey /LANG=1049 "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=1049 "CompanyName" "${PUBLISHER}"
VIAddVersionKey /LANG=1049 "FileDescription" "Установка программы «${PRODUCT}»"
VIAddVersionKey /LANG=1049 "LegalCopyright" "© Авторы Заявки. MIT OR Apache-2.0."

!define MUI_ICON "${STAGE}\icon.ico"
!define MUI_UNICON "${STAGE}\icon.ico"
!define MUI_ABORTWARNING
!define MUI_WELCOMEPAGE_TEXT "Программа установит «${PRODUCT}» ${VERSION} для вас (права администратора не нужны).$\r$\n$\r$\n«${PRODUCT}» помогает составить заявку в управляющую организацию из ваших слов. Заявку вы проверяете и подаёте сами.$\r$\n$\r$\nЕсли «${PRODUCT}» уже установлена, она будет обновлена, а ваши черновики и настройки сохранятся.$\r$\n$\r$\n$_CLICK"
!define MUI_FINISHPAGE_RUN "$INSTDIR\${APP_EXE}"
!define MUI_FINISHPAGE_RUN_TEXT "Открыть «${PRODUCT}»"
; The finish page's second check box makes the desktop shortcut (Tauri's template does the same).
!define MUI_FINISHPAGE_SHOWREADME
!define MUI_FINISHPAGE_SHOWREADME_TEXT "Создать ярлык на рабочем столе"
!define MUI_FINISHPAGE_SHOWREADME_FUNCTION CreateDesktopShortcut
!define MUI_UNCONFIRMPAGE_TEXT_TOP "Программа «${PRODUCT}» будет удалена из папки ниже. Ваши черновики, настройки и данные профиля останутся в папках %APPDATA%\Zayavka и %LOCALAPPDATA%\Zayavka: их можно перенести на другой компьютер или удалить вручную."

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "Russian"

Var WebView2Version

; Stops with exit code CODE after telling the resident MESSAGE (in the log of a silent install).
!macro Refuse CODE MESSAGE
  ${If} ${Silent}
    DetailPrint "${MESSAGE}"
  ${Else}
    MessageBox MB_OK|MB_ICONSTOP "${MESSAGE}"
  ${EndIf}
  SetErrorLevel ${CODE}
  Quit
!macroend

Function .onInit
  ${IfNot} ${AtLeastWin10}
    !insertmacro Refuse 3 "«${PRODUCT}» работает в Windows 10 и 11. На этом компьютере более старая версия Windows."
  ${EndIf}

  ; An earlier install: the same folder, and no silent downgrade.
  ReadRegStr $0 HKCU "${UNINSTALL_KEY}" "DisplayVersion"
  ${If} $0 != ""
    ${VersionCompare} "$0" "${VERSION}" $1
    ${If} $1 == 1
      ${If} ${Silent}
        SetErrorLevel 2
        Quit
      ${EndIf}
      MessageBox MB_YESNO|MB_ICONQUESTION|MB_DEFBUTTON2 "Уже установлена более новая версия «${PRODUCT}» ($0). Заменить её версией ${VERSION}?$\r$\n$\r$\nЧерновики, сохранённые новой версией, старая может не открыть." IDYES +3
      SetErrorLevel 2
      Quit
    ${EndIf}
  ${EndIf}
FunctionEnd

; Microsoft's documented check: the Runtime's `pv` value, per machine or per user, and neither
; empty nor 0.0.0.0.
Function FindWebView2
  StrCpy $WebView2Version ""
  SetRegView 64
  ReadRegStr $0 HKLM "SOFTWARE\WOW6432Node\Microsoft\EdgeUpdate\Clients\${WEBVIEW2_CLIENT}" "pv"
  ${If} $0 == ""
  ${OrIf} $0 == "0.0.0.0"
    ReadRegStr $0 HKCU "Software\Microsoft\EdgeUpdate\Clients\${WEBVIEW2_CLIENT}" "pv"
  ${EndIf}
  SetRegView lastused
  ${If} $0 != ""
  ${AndIf} $0 != "0.0.0.0"
    StrCpy $WebView2Version $0
  ${EndIf}
FunctionEnd

; A program file that is running cannot be replaced: ask the resident to close it and try again.
!macro WaitUntilReplaceable FILE
  ${Do}
    ClearErrors
    ${IfNot} ${FileExists} "${FILE}"
      ${Break}
    ${EndIf}
    FileOpen $0 "${FILE}" a
    ${IfNot} ${Errors}
      FileClose $0
      ${Break}
    ${EndIf}
    ${If} ${Silent}
      !insertmacro Refuse 4 "Файл ${FILE} занят: закройте «${PRODUCT}» и окна командной строки, где работает zayavka, и запустите установку снова."
    ${EndIf}
    MessageBox MB_RETRYCANCEL|MB_ICONEXCLAMATION "«${PRODUCT}» сейчас открыта (или в командной строке работает zayavka). Закройте её и нажмите «Повтор»." IDRETRY +3
    SetErrorLevel 4
    Quit
  ${Loop}
!macroend

Section "Заявка" SecMain
  SectionIn RO
  !insertmacro WaitUntilReplaceable "$INSTDIR\${APP_EXE}"
  !insertmacro WaitUntilReplaceable "$INSTDIR\${CLI_EXE}"

  SetOutPath "$INSTDIR"
  File "${STAGE}\${APP_EXE}"
  File "${STAGE}\${CLI_EXE}"
  File "${STAGE}\WebView2Loader.dll"
  File "${STAGE}\LICENSE.txt"
  WriteUninstaller "$INSTDIR\uninstall.exe"

  CreateShortcut "${SHORTCUT}" "$INSTDIR\${APP_EXE}" "" "$INSTDIR\${APP_EXE}" 0 \
    SW_SHOWNORMAL "" "Составить заявку в управляющую организацию"
  ; The command-line tool in a console that finds it by name, opened in the resident's folder.
  CreateShortcut "${CLI_SHORTCUT}" "$SYSDIR\cmd.exe" \
    '/k "set "PATH=$INSTDIR;%PATH%" && cd /d "%USERPROFILE%" && zayavka --help"' \
    "$SYSDIR\cmd.exe" 0 SW_SHOWNORMAL "" "Программа zayavka для пакетов заявок и черновиков"

  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayName" "${PRODUCT}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "Publisher" "${PUBLISHER}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayIcon" '"$INSTDIR\${APP_EXE}"'
  WriteRegStr HKCU "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  IntFmt $0 "0x%08X" $0
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "EstimatedSize" "$0"

  Call FindWebView2
  ${If} $WebView2Version == ""
    StrCpy $1 "Для окна «${PRODUCT}» нужен компонент Microsoft Edge WebView2 Runtime. В Windows 10 и 11 он обычно уже есть, а на этом компьютере его нет.$\r$\n$\r$\nСкачайте его бесплатно с сайта Microsoft: ${WEBVIEW2_URL} — раздел «Evergreen Bootstrapper», кнопка «Download», установите и откройте «${PRODUCT}» снова.$\r$\n$\r$\nПрограмма командной строки zayavka работает и без него."
    DetailPrint "$1"
    ${IfNot} ${Silent}
      MessageBox MB_OK|MB_ICONINFORMATION "$1"
    ${EndIf}
  ${Else}
    DetailPrint "WebView2 Runtime: $WebView2Version"
  ${EndIf}
SectionEnd

Function CreateDesktopShortcut
  CreateShortcut "${DESKTOP_SHORTCUT}" "$INSTDIR\${APP_EXE}" "" "$INSTDIR\${APP_EXE}" 0
FunctionEnd

Function un.onInit
  ; Nothing to do: the confirmation page says what stays.
FunctionEnd

Section "Uninstall"
  !insertmacro WaitUntilReplaceable "$INSTDIR\${APP_EXE}"
  !insertmacro WaitUntilReplaceable "$INSTDIR\${CLI_EXE}"
  ; Only the files the installer put there: the folder may have been chosen by hand, and
  ; nothing else in it is ours to delete.
  Delete "$INSTDIR\${APP_EXE}"
  Delete "$INSTDIR\${CLI_EXE}"
  Delete "$INSTDIR\WebView2Loader.dll"
  Delete "$INSTDIR\LICENSE.txt"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  Delete "${SHORTCUT}"
  Delete "${CLI_SHORTCUT}"
  Delete "${DESKTOP_SHORTCUT}"
  DeleteRegKey HKCU "${UNINSTALL_KEY}"
  DetailPrint "Черновики, настройки и профиль остались в %APPDATA%\Zayavka и %LOCALAPPDATA%\Zayavka."
SectionEnd
