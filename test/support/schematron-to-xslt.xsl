<?xml version="1.0" encoding="UTF-8"?>
<!--
  Compiles an ISO Schematron schema (queryBinding xslt2, as the EN 16931 and XRechnung rule files
  are) into an XSLT 2.0 stylesheet, so that a reference XSLT 2.0 engine (Saxon-HE) runs the rules.
  Only what those files use: <include> (resolved here), <ns>, <let> (schema and pattern level are
  global variables, as in the ISO skeleton; rule level are local), <xsl:function>, <pattern>, <rule>,
  <assert>, <report>, and <name>/<value-of> in messages. Every pattern runs (phases are not applied:
  the rule files name none as default, and the official XSLTs run all patterns). No abstract
  patterns or rules (the files have none): the compiler stops on one rather than run it wrongly.

  Schematron's semantics in XSLT terms: each pattern is a mode walking the whole document (elements
  and attributes); within a pattern a node is checked only by the first rule whose context matches it,
  which is the template with the highest priority, so the rules get falling priorities in document
  order. The compiled stylesheet writes one <failed> per failed assert (or successful report) with
  the rule's id, flag, the node's path and the message, inside <document uri="…">.
-->
<xsl:stylesheet version="2.0"
  xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
  xmlns:xs="http://www.w3.org/2001/XMLSchema"
  xmlns:sch="http://purl.oclc.org/dsdl/schematron"
  xmlns:out="urn:portico:generated-xslt"
  exclude-result-prefixes="xs sch">

  <!-- The generated stylesheet's xsl: elements are written as out: and renamed on output. -->
  <xsl:namespace-alias stylesheet-prefix="out" result-prefix="xsl"/>
  <xsl:output method="xml" indent="yes"/>

  <!-- Includes resolved first (XRechnung's files include ../common.sch, a pattern of variables). -->
  <xsl:variable name="schema" as="element(sch:schema)">
    <xsl:apply-templates select="/sch:schema" mode="include"/>
  </xsl:variable>

  <xsl:template match="sch:include" mode="include">
    <xsl:apply-templates select="document(@href, .)/*" mode="include"/>
  </xsl:template>
  <xsl:template match="@*|node()" mode="include">
    <xsl:copy><xsl:apply-templates select="@*|node()" mode="include"/></xsl:copy>
  </xsl:template>

  <xsl:template match="/">
    <xsl:if test="$schema//sch:*[@abstract = 'true' or @is-a] | $schema//sch:extends">
      <xsl:message terminate="yes">abstract patterns or rules are not supported by this compiler</xsl:message>
    </xsl:if>
    <out:stylesheet version="2.0">
      <xsl:namespace name="xs" select="'http://www.w3.org/2001/XMLSchema'"/>
      <xsl:for-each select="$schema/sch:ns">
        <xsl:namespace name="{@prefix}" select="string(@uri)"/>
      </xsl:for-each>
      <xsl:copy-of select="$schema/xsl:function"/>
      <!-- Schema- and pattern-level variables: global, evaluated on the document. -->
      <xsl:for-each select="$schema/sch:let | $schema/sch:pattern/sch:let">
        <out:variable name="{@name}" select="{@value}"/>
      </xsl:for-each>

      <out:template match="/">
        <document uri="{{document-uri(.)}}">
          <xsl:for-each select="$schema/sch:pattern">
            <out:apply-templates select="." mode="{out:mode(.)}"/>
          </xsl:for-each>
        </document>
      </out:template>

      <xsl:apply-templates select="$schema/sch:pattern"/>
    </out:stylesheet>
  </xsl:template>

  <xsl:function name="out:mode" as="xs:string">
    <xsl:param name="pattern" as="element(sch:pattern)"/>
    <xsl:sequence select="concat('pattern-', count($pattern/preceding-sibling::sch:pattern) + 1)"/>
  </xsl:function>

  <xsl:template match="sch:pattern">
    <xsl:variable name="mode" select="out:mode(.)"/>
    <xsl:variable name="rules" select="sch:rule"/>
    <xsl:for-each select="$rules">
      <out:template match="{@context}" mode="{$mode}" priority="{count($rules) - position() + 1}">
        <xsl:for-each select="sch:let">
          <out:variable name="{@name}" select="{@value}"/>
        </xsl:for-each>
        <xsl:apply-templates select="sch:assert | sch:report"/>
        <out:apply-templates select="@*|*" mode="{$mode}"/>
      </out:template>
    </xsl:for-each>
    <!-- A node no rule of this pattern matches: walk on. -->
    <out:template match="/|@*|node()" mode="{$mode}" priority="-1000">
      <out:apply-templates select="@*|*" mode="{$mode}"/>
    </out:template>
  </xsl:template>

  <xsl:template match="sch:assert | sch:report">
    <out:if test="{if (self::sch:assert) then concat('not(', @test, ')') else @test}">
      <failed id="{@id}" flag="{(@flag, 'fatal')[1]}" kind="{local-name()}">
        <out:attribute name="location" select="path()"/>
        <xsl:apply-templates select="node()" mode="message"/>
      </failed>
    </out:if>
  </xsl:template>

  <xsl:template match="text()" mode="message">
    <out:text><xsl:value-of select="."/></out:text>
  </xsl:template>
  <xsl:template match="sch:name" mode="message">
    <out:value-of select="name({(@path, '.')[1]})"/>
  </xsl:template>
  <xsl:template match="sch:value-of" mode="message">
    <out:value-of select="{@select}"/>
  </xsl:template>
  <xsl:template match="*" mode="message">
    <xsl:apply-templates select="node()" mode="message"/>
  </xsl:template>
</xsl:stylesheet>
