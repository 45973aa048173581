import i18next, { type TFunction } from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import en from "~/locales/en/activity.json";
import es from "~/locales/es/activity.json";
import type { ActivityRow } from "~/services/activity.server";
import { activityLabel, markOf, summaryText } from "./activity-text";

// The e-key entries store the access type's code ("Front Door: custom_access"); the log must never show it.
const t: Record<"en" | "es", TFunction> = {} as never;
beforeAll(async () => {
  for (const lng of ["en", "es"] as const) {
    const i = i18next.createInstance();
    await i.init({ lng, resources: { en: { activity: en }, es: { activity: es } }, defaultNS: "activity", interpolation: { escapeValue: false } });
    t[lng] = i.t;
  }
});

const device = { id: 7, displayName: "W6", fullName: "West Door", sensor1OpenName: "", sensor1CloseName: "", sensor2OpenName: "", sensor2CloseName: "" };
const row = (name: string, summary: string, over: Partial<ActivityRow> = {}) =>
  ({
    activityName: name,
    activityType: { name, type: "User", alertConditions: "000", firstSectionInfo: "", detailsSectionInfo: "" },
    details: {},
    summary,
    targetDevice: null,
    targetDeviceGroup: null,
    ...over,
  }) as ActivityRow;

describe("e-key activity summaries", () => {
  it.each([
    ["en", "eKey Assigned", "Front Door: custom_access", { targetDevice: device }, "West Door: Custom access"],
    ["es", "eKey Assigned", "Front Door: custom_access", { targetDevice: device }, "West Door: Acceso personalizado"],
    ["es", "eKey Modified", "Office hours: one_time_access", { targetDeviceGroup: { id: 3, fullName: "Office hours", displayName: "OH" } }, "Office hours: Acceso de un solo uso"],
    ["es", "eKey Removed", "full_access", {}, "Acceso completo"],
    // a removed door keeps the name the entry stored
    ["es", "eKey Assigned", "Old Door: full_access", {}, "Old Door: Acceso completo"],
  ] as const)("%s %s %s", (lng, name, summary, over, expected) => {
    const text = summaryText(t[lng], row(name, summary, over));
    expect(text).toBe(expected);
    expect(text).not.toMatch(/_access/);
  });

  it("leaves a summary that is not an access code as it was written", () => {
    expect(summaryText(t.es, row("eKey Assigned", "free text"))).toBe("free text");
  });

  it("names the event in Spanish", () => {
    expect(activityLabel(t.es, row("eKey Assigned", ""))).toBe("eKey asignada");
  });
});

// Each stored text is built with the producer's own template (see stored-summaries.ts for where it lives).
describe("summaries stored as English text", () => {
  const user = "Ana";
  const door = "West Door";
  const version = "1.2";
  const cases: [string, string, string, string][] = [
    ["User Logs In", `${user} signed in to the ${"console"}`, "Ana signed in to the console", "Ana inició sesión en la consola"],
    ["User Logs In", `${user} signed in to the ${"admin API"}`, "Ana signed in to the admin API", "Ana inició sesión en la API de administración"],
    ["User Logs Out", `${user} was signed out after inactivity`, "Ana was signed out after inactivity", "Se cerró la sesión de Ana por inactividad"],
    ["User Logs Out", `${user} signed out`, "Ana signed out", "Ana cerró la sesión"],
    ["Modified Company", `${"Acme"} (${"ACM1"})${" de-activated"}`, "Acme (ACM1) de-activated", "Acme (ACM1) desactivada"],
    ["Modified Company", `${"Acme"} (${"ACM1"})${" activated"}`, "Acme (ACM1) activated", "Acme (ACM1) activada"],
    [
      "Moved Company To Cell",
      `${"Acme"} (${"ACM1"}) moved from cell ${"main"} to cell ${"eu-2"}`,
      "Acme (ACM1) moved from cell main to cell eu-2",
      "Acme (ACM1) movida de la celda main a la celda eu-2",
    ],
    ["Remote Unlock Requested", `Remote unlock requested for ${door}`, "Remote unlock requested for West Door", "Apertura remota solicitada para West Door"],
    ["Firmware Uploaded", `Firmware ${version} uploaded`, "Firmware 1.2 uploaded", "Firmware 1.2 subido"],
    ["Firmware Activated", `Firmware ${version} made active`, "Firmware 1.2 made active", "Firmware 1.2 activado"],
    ["Firmware Removed", `Firmware ${version} removed`, "Firmware 1.2 removed", "Firmware 1.2 eliminado"],
    ["Sensor 2 Open", `Sensor ${2} ${"open"} at ${door}`, "Sensor 2 open at West Door", "Sensor 2 abierto en West Door"],
    ["Sensor 1 Closed", `Sensor ${1} ${"closed"} at ${door}`, "Sensor 1 closed at West Door", "Sensor 1 cerrado en West Door"],
    ["Low Battery", `Battery at ${42}% on ${door}`, "Battery at 42% on West Door", "Batería al 42 % en West Door"],
    ["Sensor Reading", `${"Temperature"} ${21.5}${" °C"} at ${door}`, "Temperature 21.5 °C at West Door", "Temperature 21.5 °C en West Door"],
    ["Sensor Reading", `${"CO2"} ${-3}${""} at ${door}`, "CO2 -3 at West Door", "CO2 -3 en West Door"],
    // a name or a door with " at " in it: the first " at " after the number ends the reading
    ["Sensor Reading", `${"Temp at inlet"} ${7}${" C"} at ${"Gate at North"}`, "Temp at inlet 7 C at Gate at North", "Temp at inlet 7 C en Gate at North"],
    ["Location Reported", `${door} reported its location`, "West Door reported its location", "West Door comunicó su ubicación"],
    ["Device Online", `${door} came online`, "West Door came online", "West Door se ha conectado"],
    ["Device Offline", `${door} went offline`, "West Door went offline", "West Door se ha desconectado"],
    ["Device Clock Drift", `${door} clock is ${45} s ${"ahead"}`, "West Door clock is 45 s ahead", "El reloj de West Door va 45 s adelantado"],
    ["Device Clock Drift", `${door} clock is ${90} s ${"behind"}`, "West Door clock is 90 s behind", "El reloj de West Door va 90 s atrasado"],
    [
      "Device Zone Data Outdated",
      `${door} decides with zone data ${"2019c"}, older than ${"2025b"}`,
      "West Door decides with zone data 2019c, older than 2025b",
      "West Door decide con datos de zonas horarias 2019c, anteriores a 2025b",
    ],
    ["Tamper Detected", `Tamper ${"detected"} on ${door}`, "Tamper detected on West Door", "Manipulación detectada en West Door"],
    ["Tamper Detected", `Tamper ${"cleared"} on ${door}`, "Tamper cleared on West Door", "Manipulación resuelta en West Door"],
    ["Devices Registered", `${3} into the stock of ${"Acme"} (${"ACM1"})`, "3 into the stock of Acme (ACM1)", "3 al stock de Acme (ACM1)"],
    ["Devices Transferred", `${2} from ${"Acme"} (${"ACM1"}) as ${"stock"}`, "2 from Acme (ACM1) as stock", "2 de Acme (ACM1) en stock"],
    ["Devices Transferred", `${2} from ${"Acme"} (${"ACM1"}) as ${"unconfigured"}`, "2 from Acme (ACM1) as unconfigured", "2 de Acme (ACM1) sin configurar"],
    ["Device Group Modified", `${"Lobby"}: ${door} added`, "Lobby: West Door added", "Lobby: West Door añadido"],
    ["User Modified", `${"Ruiz, Ana"}: ${"deactivated"}`, "Ruiz, Ana: deactivated", "Ruiz, Ana: desactivado"],
    ["User Modified", `${"Ruiz, Ana"}: ${"reactivated"}`, "Ruiz, Ana: reactivated", "Ruiz, Ana: reactivado"],
    // A command's protocol id never shows; the console's own expiry reads as what happened.
    ["Command Succeeded", `Command ${"console.3"} succeeded on ${door}`, "Command succeeded on West Door", "Orden completada en West Door"],
    [
      "Command Failed",
      `Command ${"console.3"} failed on ${door}: ${"expired / device offline"}`,
      "Command failed on West Door: the board did not answer in time",
      "Orden fallida en West Door: el dispositivo no respondió a tiempo",
    ],
    ["Command Failed", `Command ${"b-7"} failed on ${door}: ${"jammed"}`, "Command failed on West Door: jammed", "Orden fallida en West Door: jammed"],
    ["Command Failed", `Command ${"b-7"} failed on ${door}`, "Command failed on West Door", "Orden fallida en West Door"],
    [
      "Command Failed",
      `Remote unlock failed on ${door}: the board did not answer within 60 s`,
      "Remote unlock failed on West Door: the board did not answer within 60 s",
      "Falló la apertura remota de West Door: la placa no respondió en 60 s",
    ],
    ["Command Succeeded", `Remote command succeeded on ${door}`, "Remote command succeeded on West Door", "Orden remota completada en West Door"],
    ["Command Failed", `Remote command failed on ${door}: jammed`, "Remote command failed on West Door: jammed", "Orden remota fallida en West Door: jammed"],
    ["Command Failed", `Remote command failed on ${door}`, "Remote command failed on West Door", "Orden remota fallida en West Door"],
    ["Mailer Test Sent", `Alert test mail to ${1} recipient(s)`, "Alert test mail to 1 recipient", "Correo de prueba de alerta a 1 destinatario"],
    ["Mailer Test Sent", `Alert test mail to ${3} recipient(s)`, "Alert test mail to 3 recipients", "Correo de prueba de alerta a 3 destinatarios"],
    ["User Logs In", `${user} signed in to the mobile app`, "Ana signed in to the mobile app", "Ana inició sesión en la app móvil"],
    ["Unlocked With App", `Unlocked with the app at ${door}`, "Unlocked with the app at West Door", "Desbloqueado con la app en West Door"],
    [
      "Scheduled Open Started",
      `Scheduled open started at ${door}: first person in`,
      "Scheduled open started at West Door: first person in",
      "Apertura programada iniciada en West Door: primera persona dentro",
    ],
    ["Firmware Installed", `Firmware installed on ${door}`, "Firmware installed on West Door", "Firmware instalado en West Door"],
    [
      "Firmware Rollout Paused",
      `Firmware ${version} rollout paused: ${10} of ${20} boards failed in wave ${1}`,
      "Firmware 1.2 rollout paused: 10 of 20 boards failed in wave 1",
      "Despliegue del firmware 1.2 pausado: 10 de 20 placas fallaron en la oleada 1",
    ],
    ["Firmware Rollout Paused", `Firmware ${version} rollout paused`, "Firmware 1.2 rollout paused", "Despliegue del firmware 1.2 pausado"],
    [
      "Firmware Rollout Wave Opened",
      `Firmware ${version} rollout: wave ${2} of ${3} opened`,
      "Firmware 1.2 rollout: wave 2 of 3 opened",
      "Despliegue del firmware 1.2: oleada 2 de 3 abierta",
    ],
    ["Firmware Rollout Completed", `Firmware ${version} rollout completed`, "Firmware 1.2 rollout completed", "Despliegue del firmware 1.2 completado"],
    ["Firmware Progress", `Firmware ${version} download at ${40}% on ${door}`, "Firmware 1.2 download at 40% on West Door", "Descarga del firmware 1.2 al 40 % en West Door"],
    ["Phone Biometric Registered", `${user} registered the phone's biometric`, "Ana registered the phone's biometric", "Ana registró la biometría del teléfono"],
    [
      "Visitor Pass Created",
      `Visitor pass for ${"Luz, Jr."}, hosted by ${user} (${"2026-11-30 – 2026-12-01"}, ${"09:00–17:00"}${", one entry"})`,
      "Visitor pass for Luz, Jr., hosted by Ana (2026-11-30 – 2026-12-01, 09:00–17:00, one entry)",
      "Pase de visitante para Luz, Jr., con Ana de anfitrión (2026-11-30 – 2026-12-01, 09:00–17:00, una entrada)",
    ],
    [
      "Visitor Pass Created",
      `Visitor pass for ${"Luz"}, hosted by ${user} (${"2026-11-30"}, ${"09:00–17:00"}${""})`,
      "Visitor pass for Luz, hosted by Ana (2026-11-30, 09:00–17:00)",
      "Pase de visitante para Luz, con Ana de anfitrión (2026-11-30, 09:00–17:00)",
    ],
    ["Visitor Pass Revoked", `Visitor pass for ${"Luz"} revoked`, "Visitor pass for Luz revoked", "Pase de visitante de Luz revocado"],
    ["Visitor Pass Opened", `${"Luz"} opened their visitor pass on a phone`, "Luz opened their visitor pass on a phone", "Luz abrió su pase de visitante en un móvil"],
    ["Visitor Pass Rules Modified", `Visitor rules: at most ${3} days`, "Visitor rules: at most 3 days", "Normas de visitantes: como máximo 3 días"],
    [
      "Visitor Pass Rules Modified",
      `Visitor rules: at most ${3} days, doors of group ${12}`,
      "Visitor rules: at most 3 days, doors of group 12",
      "Normas de visitantes: como máximo 3 días, puertas del grupo 12",
    ],
    ["Authenticator App Enrolled", `${user} switched on an authenticator app`, "Ana switched on an authenticator app", "Ana activó una aplicación de autenticación"],
    ["Authenticator App Removed", `${user} switched off their authenticator app`, "Ana switched off their authenticator app", "Ana desactivó su aplicación de autenticación"],
    ["Authenticator App Reset", `${"Luz"}: authenticator app removed by ${user}`, "Luz: authenticator app removed by Ana", "Luz: aplicación de autenticación quitada por Ana"],
    ["Recovery Code Used", `${user} signed in with a recovery code`, "Ana signed in with a recovery code", "Ana inició sesión con un código de recuperación"],
    ["Passkey Added", `${user} added the passkey ${"Work laptop"}`, "Ana added the passkey Work laptop", "Ana añadió la llave de acceso Work laptop"],
    ["Passkey Removed", `${user} removed the passkey ${"Work laptop"}`, "Ana removed the passkey Work laptop", "Ana quitó la llave de acceso Work laptop"],
    ["Passkey Used", `${user} signed in with the passkey ${"Work laptop"}`, "Ana signed in with the passkey Work laptop", "Ana inició sesión con la llave de acceso Work laptop"],
    ["Passkeys Reset", `${"Luz"}: ${2} passkey(s) removed by ${user}`, "Luz: 2 passkey(s) removed by Ana", "Luz: Ana quitó 2 llave(s) de acceso"],
    [
      "MFA Policy Changed",
      `${user} set the sign-in security policy to ${"all"}`,
      "Ana set the sign-in security policy to all",
      "Ana fijó la política de seguridad del inicio de sesión en all",
    ],
  ];
  it.each(cases)("%s: %s", (name, stored, english, spanish) => {
    expect(summaryText(t.en, row(name, stored))).toBe(english);
    expect(summaryText(t.es, row(name, stored))).toBe(spanish);
  });

  it.each([
    ["Low Battery", "Batería baja"],
    ["Unlocked With App", "Desbloqueado con la app"],
    ["Sensor 1 Open", "Sensor 1 abierto"],
    ["Device Group Created", "Grupo de dispositivos creado"],
  ])("a summary that is only the event's name (%s) reads as the name in Spanish", (name, spanish) => {
    expect(summaryText(t.es, row(name, name))).toBe(spanish);
    expect(summaryText(t.en, row(name, name))).toBe(name);
  });

  it("shows an unknown text as stored", () => {
    expect(summaryText(t.es, row("Modified Company", "Acme Door Co. renamed"))).toBe("Acme Door Co. renamed");
    expect(summaryText(t.es, row("Devices Transferred", "2 from Acme (ACM1) as returned"))).toBe("2 from Acme (ACM1) as returned");
    expect(summaryText(t.es, row("Sensor Reading", "Door sensor at West Door"))).toBe("Door sensor at West Door");
  });

  it("leaves the free text of another event as written even when it looks like a known shape", () => {
    expect(summaryText(t.es, row("Alert Created", "Ana signed out"))).toBe("Ana signed out");
  });
});

describe("badges", () => {
  it.each([
    ["Access Granted", "", "granted"],
    ["Access Denied", "", "denied"],
    ["Door Forced Open", "West Door forced open", "forced"],
    ["Door Held Open", "West Door held open", "heldOpen"],
    ["Tamper Detected", "Tamper detected on West Door", "tamper"],
    ["Tamper Detected", "Tamper cleared on West Door", null],
    ["Low Battery", "Battery at 9% on West Door", "lowBattery"],
    ["Door Opened", "West Door opened", null],
  ] as const)("%s (%s): %s", (name, summary, mark) => {
    expect(markOf(row(name, summary))).toBe(mark);
  });
});

describe("a denial", () => {
  it("gives its reason once, in the summary", () => {
    const denied = row("Access Denied", "Access denied at West Door", {
      targetDevice: device,
      details: { code: "no_key" },
      activityType: { name: "Access Denied", type: "Device", alertConditions: "001", firstSectionInfo: "", detailsSectionInfo: "" },
    });
    expect(summaryText(t.en, denied)).toBe("Access denied at West Door: No key for this door");
    expect(summaryText(t.es, denied)).toBe("Acceso denegado en West Door: No tiene llave para esta puerta");
  });
});

describe("a guest's entry", () => {
  it("names the guest of the visitor pass, in the reader's language", () => {
    const entry = (name: "Access Granted" | "Access Denied", details: Record<string, unknown>) =>
      row(name, `${name} at West Door with visitor pass v12 (Ana López)`, {
        targetDevice: device,
        details,
        activityType: { name, type: "Device", alertConditions: "001", firstSectionInfo: "", detailsSectionInfo: "" },
      });
    const pass = { keyKind: "pass", keyId: "v12", userId: "v12", guest: "Ana López" };
    expect(summaryText(t.en, entry("Access Granted", pass))).toBe("Access granted at West Door to Ana López (visitor pass)");
    expect(summaryText(t.es, entry("Access Granted", pass))).toBe("Acceso concedido en West Door a Ana López (pase de visitante)");
    expect(summaryText(t.es, entry("Access Denied", { ...pass, code: "key_used" }))).toBe(
      "Acceso denegado en West Door a Ana López (pase de visitante): La llave de un solo uso ya se utilizó",
    );
    // An entry stored before guests were named (no guest in its details) reads as any access.
    expect(summaryText(t.en, entry("Access Granted", { keyKind: "pass", keyId: "v12" }))).toBe("Access granted at West Door");
  });
});
