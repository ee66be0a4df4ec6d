<?xml version="1.0" encoding="UTF-8"?>
<!--
  Runs Schematron rule files over many documents in one Saxon-HE process (starting the JVM costs
  more than checking a document). The source is a batch:
    <batch><schema href="file:…/rules.sch"><document href="file:…/a.xml"/>…</schema>…</batch>
  Each schema is compiled once by schematron-to-xslt.xsl, and the compiled stylesheet then runs on
  each of its documents with that document as the global context item (the rules' document-level
  variables are global variables). Output: one tab-separated line per failed assert,
    document href, schema href, rule id, flag, message
  and one line "document href, schema href, checked" for each document checked, so that a document the
  engine skipped cannot pass for a clean one.
-->
<xsl:stylesheet version="3.0"
  xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
  xmlns:xs="http://www.w3.org/2001/XMLSchema"
  exclude-result-prefixes="xs">
  <xsl:output method="text"/>

  <xsl:variable name="compiler" select="resolve-uri('schematron-to-xslt.xsl', static-base-uri())"/>
  <xsl:variable name="tab" select="'&#9;'"/>

  <xsl:template match="/batch">
    <xsl:for-each select="schema">
      <xsl:variable name="schema" select="string(@href)"/>
      <xsl:variable name="compiled" as="document-node()"
        select="transform(map { 'stylesheet-location': $compiler, 'source-node': doc($schema) })?output"/>
      <xsl:for-each select="document">
        <xsl:variable name="document" select="string(@href)"/>
        <xsl:variable name="report" as="document-node()"
          select="transform(map { 'stylesheet-node': $compiled, 'source-node': doc(@href) })?output"/>
        <xsl:for-each select="$report/document/failed">
          <xsl:value-of select="$document, $schema, @id, @flag, normalize-space(.)" separator="{$tab}"/>
          <xsl:text>&#10;</xsl:text>
        </xsl:for-each>
        <xsl:value-of select="$document, $schema, 'checked'" separator="{$tab}"/>
        <xsl:text>&#10;</xsl:text>
      </xsl:for-each>
    </xsl:for-each>
  </xsl:template>
</xsl:stylesheet>
