//! The line grammar of each dialect (ACO/RADV, llvm-objdump, RGA, LLVM):
//! what is a program header, label, comment or code.

use super::*;

impl LineReader<'_> {
    pub(super) fn aco_line(&mut self, n: u32, raw: &str) -> Result<(), AsmError> {
        let t = raw.trim();
        if !self.aco_in_disasm {
            if t == "disasm:" {
                let (name, stage) = self
                    .aco_header
                    .take()
                    .unwrap_or_else(|| ("shader".to_string(), None));
                let count = self.programs.len() + usize::from(self.current.is_some());
                let name = if self.programs.iter().any(|p| p.name == name) {
                    format!("{name} #{count}")
                } else {
                    name
                };
                self.start_program(&name, n, stage);
                if stage == Some(Stage::Compute) {
                    // NIR's header of the (only) compute shader of the dump.
                    let declared = self.radv_declared.clone();
                    if let Some(p) = self.current.as_mut() {
                        merge_declared(&mut p.declared, declared);
                    }
                }
                self.aco_in_disasm = true;
            } else if let Some(size) = t.strip_prefix("workgroup-size:") {
                let dims: Vec<u32> = size
                    .split(',')
                    .filter_map(|d| d.trim().parse().ok())
                    .collect();
                if let [x, y, z] = dims[..] {
                    if let Some(size) = valid_workgroup(x, y, z) {
                        self.radv_declared.workgroup_size = Some(size);
                    }
                }
            } else if let Some(size) = t.strip_prefix("shared-size:") {
                self.radv_declared.lds_bytes = size.trim().parse().ok();
            } else if !t.is_empty() && !raw.starts_with(char::is_whitespace) {
                // The line before `disasm:` names the shader: "Pixel Shader",
                // "Vertex Shader as VS", "Compute Shader", ...
                let lower = t.to_ascii_lowercase();
                let stage =
                    if lower.starts_with("pixel shader") || lower.starts_with("fragment shader") {
                        Some(Stage::Pixel)
                    } else if lower.starts_with("vertex shader") {
                        Some(Stage::Vertex)
                    } else if lower.starts_with("compute shader") {
                        Some(Stage::Compute)
                    } else {
                        None
                    };
                if stage.is_some() || lower.ends_with("shader") {
                    self.aco_header = Some((t.to_string(), stage));
                }
            }
            return Ok(());
        }
        if t.is_empty() {
            if !self.aco_bare {
                self.aco_in_disasm = false;
                self.close_program();
            }
            return Ok(());
        }
        let (code, comment) = match comment_start(raw) {
            Some(c) => (&raw[..c], Some(&raw[c + 1..])),
            None => (raw, None),
        };
        let encoding = comment.and_then(parse_hex_words).unwrap_or_default();
        self.code(n, code, None, encoding)
    }

    pub(super) fn objdump_line(&mut self, n: u32, raw: &str) -> Result<(), AsmError> {
        let t = raw.trim();
        if t.is_empty() || t.starts_with("Disassembly of section") || t.contains("file format") {
            return Ok(());
        }
        if let Some(comment) = t.strip_prefix(';') {
            self.objdump_line_info(comment);
            return Ok(());
        }
        // Function header: `0000000000001100 <name>:`, or `<name>:`
        // (--no-leading-addr); `<L0>:` inside a function is a label
        // (--symbolize-operands).
        let header = match t.split_once(' ') {
            Some((addr, rest)) if addr.bytes().all(|b| b.is_ascii_hexdigit()) => Some(rest),
            None => Some(t),
            _ => None,
        };
        if let Some(name) = header
            .and_then(|h| h.strip_prefix('<'))
            .and_then(|h| h.strip_suffix(">:"))
        {
            let is_label = name.len() > 1
                && name.starts_with('L')
                && name[1..].bytes().all(|b| b.is_ascii_digit());
            if is_label && self.current.is_some() {
                self.add_label(name, n);
            } else {
                self.start_program(name, n, None);
            }
            return Ok(());
        }
        // Relocation (-r): `0000000000000140:  R_AMDGPU_REL32_LO  helper+0x4`.
        if let Some((addr, rest)) = t.split_once(':') {
            if addr.bytes().all(|b| b.is_ascii_hexdigit())
                && rest.trim_start().starts_with("R_AMDGPU_")
            {
                self.relocation(rest.trim());
                return Ok(());
            }
        }
        let (code, address, encoding) = match raw.find("//") {
            Some(c) => match parse_objdump_comment(&raw[c + 2..]) {
                Some((a, w)) => (&raw[..c], Some(a), w),
                None => (&raw[..c], None, Vec::new()),
            },
            None => (raw, None, Vec::new()),
        };
        let code_trim = code.trim();
        if code_trim.is_empty() {
            return Ok(());
        }
        if code_trim == "s_code_end" {
            // Padding after the end of the code (documented skip rule).
            return Ok(());
        }
        if let Some((label, _)) = split_label(code_trim) {
            self.ensure_program(n);
            self.add_label(label, n);
            return Ok(());
        }
        self.code(n, code, address, encoding)
    }

    /// `; /path/file.cl:28` (llvm-objdump -l): the source line of what
    /// follows. Other `;` lines (function names, -S source text) say nothing
    /// the simulator needs.
    fn objdump_line_info(&mut self, comment: &str) {
        let c = comment.trim();
        let Some((path, line)) = c.rsplit_once(':') else {
            return;
        };
        let Ok(line) = line.parse::<u32>() else {
            return;
        };
        if path.is_empty() || path.contains(char::is_whitespace) {
            return;
        }
        let file = match self.source_files.iter().find(|(_, p)| p == path) {
            Some((number, _)) => *number,
            None => {
                let number = self.source_files.len() as u32;
                self.source_files.push((number, path.to_string()));
                number
            }
        };
        self.loc = (line > 0).then_some(SourceLoc {
            file,
            line,
            column: 0,
        });
    }

    /// An objdump relocation patches the literal of the instruction just
    /// read: give that operand its symbol, as LLVM's assembly prints it
    /// (`helper@rel32@lo+4`), so calls through it resolve.
    fn relocation(&mut self, rest: &str) {
        let mut words = rest.split_whitespace();
        let (Some(kind), Some(target)) = (words.next(), words.next()) else {
            return;
        };
        let suffix = match kind {
            "R_AMDGPU_REL32_LO" => "@rel32@lo",
            "R_AMDGPU_REL32_HI" => "@rel32@hi",
            "R_AMDGPU_GOTPCREL32_LO" => "@gotpcrel32@lo",
            "R_AMDGPU_GOTPCREL32_HI" => "@gotpcrel32@hi",
            "R_AMDGPU_ABS32_LO" => "@abs32@lo",
            "R_AMDGPU_ABS32_HI" => "@abs32@hi",
            _ => return,
        };
        let (sym, addend) = target.split_once('+').unwrap_or((target, "0"));
        let Some(last) = self
            .current
            .as_mut()
            .and_then(|p| p.instructions.last_mut())
        else {
            return;
        };
        if let Some(op) = last
            .inst
            .operands
            .iter_mut()
            .rev()
            .find(|o| matches!(o, Operand::Imm(_)))
        {
            *op = Operand::Symbol(format!("{sym}{suffix}+{addend}"));
        }
    }

    pub(super) fn rga_line(&mut self, n: u32, raw: &str) -> Result<(), AsmError> {
        let t = raw.trim();
        if t.is_empty() {
            return Ok(());
        }
        if let Some(comment) = t.strip_prefix(';') {
            self.rga_statistic(comment);
            return Ok(());
        }
        if let Some(name) = t.strip_prefix("shader ") {
            self.start_program(name.trim(), n, None);
            return Ok(());
        }
        if t == "end" {
            self.close_program();
            return Ok(());
        }
        // Header properties: `asic(GFX10)`, `type(CS)`, `vgpr_count(8)`.
        if let Some((key, value)) = t.strip_suffix(')').and_then(|h| h.split_once('(')) {
            if key.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') && !key.is_empty() {
                self.rga_property(key, value.trim());
                return Ok(());
            }
        }
        let code_end = raw.find("//").unwrap_or(raw.len());
        let code = &raw[..code_end];
        if code.trim().is_empty() {
            return Ok(());
        }
        let (address, encoding) = raw
            .get(code_end + 2..)
            .and_then(parse_objdump_comment)
            .map_or((None, Vec::new()), |(a, w)| (Some(a), w));
        // SP3 accepts upper-case mnemonics (`S_BARRIER`).
        let lowered;
        let code =
            if code.bytes().any(|b| b.is_ascii_uppercase()) && split_label(code.trim()).is_none() {
                let start = code.len() - code.trim_start().len();
                let end = code[start..]
                    .find(char::is_whitespace)
                    .map_or(code.len(), |e| start + e);
                lowered = format!(
                    "{}{}{}",
                    &code[..start],
                    code[start..end].to_ascii_lowercase(),
                    &code[end..]
                );
                lowered.as_str()
            } else {
                code
            };
        self.code(n, code, address, encoding)
    }

    fn rga_property(&mut self, key: &str, value: &str) {
        let int = value.parse::<u32>().ok();
        let Some(p) = self.current.as_mut() else {
            return;
        };
        match key {
            "type" => {
                p.stage = match value.to_ascii_uppercase().as_str() {
                    "PS" => Some(Stage::Pixel),
                    "VS" | "GS" | "ES" | "LS" | "HS" => Some(Stage::Vertex),
                    "CS" => Some(Stage::Compute),
                    _ => p.stage,
                }
            }
            "vgpr_count" => p.declared.vgprs = int,
            "sgpr_count" => p.declared.sgprs = int,
            "wave_size" => p.declared.wave_size = int,
            "lds_size" => p.declared.lds_bytes = int,
            _ => {}
        }
    }

    /// RGA's statistics after the code: `; SGPRs: 14 out of 104 used`,
    /// `; VGPRs: 8 out of 256 used`, `; LDS: 1024 out of 65536 bytes used`.
    fn rga_statistic(&mut self, comment: &str) {
        let Some((key, value)) = comment.trim().split_once(':') else {
            return;
        };
        let value: Option<u32> = value.split_whitespace().next().and_then(|v| v.parse().ok());
        let Some(p) = self.stats_program() else {
            return;
        };
        let d = &mut p.declared;
        match key.trim() {
            "SGPRs" => d.sgprs = d.sgprs.or(value),
            "VGPRs" => d.vgprs = d.vgprs.or(value),
            "LDS" => d.lds_bytes = d.lds_bytes.or(value),
            _ => {}
        }
    }

    pub(super) fn llvm_line(&mut self, n: u32, raw: &str) -> Result<(), AsmError> {
        let (code, comment) = match comment_start(raw) {
            Some(c) => (&raw[..c], Some(&raw[c..])),
            None => (raw, None),
        };
        if let Some(comment) = comment {
            self.stats_comment(comment);
        }
        let t = code.trim();
        if self.in_metadata {
            if t.starts_with(".end_amdgpu_metadata") || t.starts_with(".end_amdgpu_pal_metadata") {
                self.in_metadata = false;
                self.metadata.end();
            } else {
                self.metadata.line(code);
            }
            return Ok(());
        }
        if t.is_empty() {
            return Ok(());
        }
        if t.starts_with('.') && split_label(t).is_none() {
            return self.directive(n, raw, t);
        }
        if let Some((label, rest)) = split_label(t) {
            if self.in_data_section {
                return Ok(());
            }
            if self.function_symbols.iter().any(|f| f == label) {
                let stage = self.pending_stage.take();
                self.start_program(label, n, stage);
                if let Some(d) = self.descriptors.remove(label) {
                    merge_declared(&mut self.current.as_mut().unwrap().declared, d);
                }
            } else if label.starts_with(".Lfunc_end") {
                self.close_program();
                return Ok(());
            } else {
                self.ensure_program(n);
                self.add_label(label, n);
            }
            if !rest.trim().is_empty() {
                let offset = raw.len() - raw.trim_start().len() + (t.len() - rest.len());
                let rest_code = &raw[..offset + rest.len()];
                let padded: String = rest_code
                    .char_indices()
                    .map(|(i, c)| if i < offset { ' ' } else { c })
                    .collect();
                return self.code(n, &padded, None, Vec::new());
            }
            return Ok(());
        }
        if self.in_data_section {
            return Ok(());
        }
        let encoding = comment.and_then(mc_encoding).unwrap_or_default();
        self.code(n, code, None, encoding)
    }
}

/// The words of llvm-mc's `-show-encoding` comment (`; encoding: [0x03,0x00,0x82,0xbf]`,
/// little-endian bytes), which give a listing without addresses its instructions' sizes (a
/// numeric branch offset counts words from the next instruction). `None` when a byte is a
/// fixup placeholder (`[A,A,0x82,0xbf]`: a branch to a label) or the bytes are not whole words.
fn mc_encoding(comment: &str) -> Option<Vec<u32>> {
    let start = comment.find("encoding: [")? + "encoding: [".len();
    let inner = &comment[start..start + comment[start..].find(']')?];
    let bytes: Vec<u8> = inner
        .split(',')
        .map(|b| u8::from_str_radix(b.trim().strip_prefix("0x")?, 16).ok())
        .collect::<Option<_>>()?;
    if bytes.is_empty() || bytes.len() % 4 != 0 {
        return None;
    }
    Some(
        bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    )
}
